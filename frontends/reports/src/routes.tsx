import { type ScreenRoute, ScreenRoutes } from '@bahi/ui';

/** Reports and Financials: the shell mounts this remote at /reports/* and /financials/*. */
export const SCREENS: ScreenRoute[] = [
  { base: 'reports', path: 'balances', title: 'Balances Report' },
  { base: 'reports', path: 'stock', title: 'Stock Report' },
  { base: 'reports', path: 'payments', title: 'Payments Report' },
  { base: 'reports', path: 'salary-report', title: 'Salary Payments Report' },
  { base: 'reports', path: 'ledger/:entityType/:entityId', title: 'Ledger' },
  { base: 'financials', path: 'daywise-report', title: 'Day-wise Report' },
  { base: 'financials', path: 'cashbook-report', title: 'Cashbook Report' },
];

export default function ReportsRoutes({ base }: { base: string }) {
  return <ScreenRoutes remote="reports" base={base} screens={SCREENS} />;
}

import { type ScreenRoute, ScreenRoutes } from '@bahi/ui';

export const SCREENS: ScreenRoute[] = [
  { base: 'transactions', path: 'purchases', title: 'Purchases' },
  { base: 'transactions', path: 'sales', title: 'Sales' },
  { base: 'transactions', path: 'bulk-sale', title: 'Bulk Sale' },
  { base: 'transactions', path: 'transfers', title: 'Collector Transfers' },
  { base: 'transactions', path: 'expenses', title: 'Expenses' },
  { base: 'transactions', path: 'incomes', title: 'Other Incomes' },
];

export default function TransactionsRoutes({ base }: { base: string }) {
  return <ScreenRoutes remote="transactions" base={base} screens={SCREENS} />;
}

import { lazyNamed, NotFoundPage, preloadInTurn, Route, Routes } from '@bahi/ui';
import { ScreenProviders } from '@bahi/ui/screen';
import { Spinner } from '@fluentui/react-components';
import { Suspense } from 'react';

// Each screen loads when first opened.
const BalancesPage = lazyNamed(() => import('./features/balances/balances-page.tsx'), 'BalancesPage');
const StockPage = lazyNamed(() => import('./features/stock/stock-page.tsx'), 'StockPage');
const PaymentsPage = lazyNamed(() => import('./features/payments/payments-page.tsx'), 'PaymentsPage');
const SalaryReportPage = lazyNamed(
  () => import('./features/salary-report/salary-report-page.tsx'),
  'SalaryReportPage',
);
const LedgerPage = lazyNamed(() => import('./features/ledger/ledger-page.tsx'), 'LedgerPage');
const DaywisePage = lazyNamed(() => import('./features/daywise/daywise-page.tsx'), 'DaywisePage');
const CashbookPage = lazyNamed(() => import('./features/cashbook/cashbook-page.tsx'), 'CashbookPage');

/** Every screen's code, most visited first, fetched by the shell when the browser is idle. */
export const preload = () =>
  preloadInTurn([
    BalancesPage,
    LedgerPage,
    DaywisePage,
    StockPage,
    CashbookPage,
    PaymentsPage,
    SalaryReportPage,
  ]);

/**
 * Reports and Financials (spec section 2): the shell mounts this remote at /reports/* and
 * /financials/*; `base` says which.
 */
export default function ReportsRoutes({ base }: { base: string }) {
  return (
    <ScreenProviders>
      <Suspense fallback={<Spinner label="Loading…" />}>
        {base === 'financials' ? (
          <Routes>
            <Route path="daywise-report" element={<DaywisePage />} />
            <Route path="cashbook-report" element={<CashbookPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        ) : (
          <Routes>
            <Route path="balances" element={<BalancesPage />} />
            <Route path="stock" element={<StockPage />} />
            <Route path="payments" element={<PaymentsPage />} />
            <Route path="salary-report" element={<SalaryReportPage />} />
            <Route path="ledger/:entityType/:entityId" element={<LedgerPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        )}
      </Suspense>
    </ScreenProviders>
  );
}

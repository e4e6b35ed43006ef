import { lazyNamed, NotFoundPage, preloadInTurn, Route, Routes } from '@bahi/ui';
import { ScreenProviders } from '@bahi/ui/screen';
import { Spinner } from '@fluentui/react-components';
import { Suspense } from 'react';

// Each screen loads when first opened: the Bulk Sale grid's forms do not weigh on the lists.
const PurchasesPage = lazyNamed(() => import('./features/purchases/purchases-page.tsx'), 'PurchasesPage');
const SalesPage = lazyNamed(() => import('./features/sales/sales-page.tsx'), 'SalesPage');
const BulkSalePage = lazyNamed(() => import('./features/bulk-sale/bulk-sale-page.tsx'), 'BulkSalePage');
const TransfersPage = lazyNamed(() => import('./features/transfers/transfers-page.tsx'), 'TransfersPage');
const ExpensesPage = lazyNamed(() => import('./features/expenses/expenses-page.tsx'), 'ExpensesPage');
const IncomesPage = lazyNamed(() => import('./features/incomes/incomes-page.tsx'), 'IncomesPage');

/**
 * The lists' code, fetched by the shell when the browser is idle after sign-in. Not the Bulk
 * Sale grid: it carries the forms (react-hook-form, zod, the schemas) and is seldom the next
 * screen; it still loads on its first opening.
 */
export const preload = () =>
  preloadInTurn([PurchasesPage, SalesPage, TransfersPage, ExpensesPage, IncomesPage]);

/** The transactions remote's screens under /transactions (spec section 2, route table). */
export default function TransactionsRoutes(_props: { base: string }) {
  return (
    <ScreenProviders>
      <Suspense fallback={<Spinner label="Loading…" />}>
        <Routes>
          <Route path="purchases" element={<PurchasesPage />} />
          <Route path="sales" element={<SalesPage />} />
          <Route path="bulk-sale" element={<BulkSalePage />} />
          <Route path="transfers" element={<TransfersPage />} />
          <Route path="expenses" element={<ExpensesPage />} />
          <Route path="incomes" element={<IncomesPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </ScreenProviders>
  );
}

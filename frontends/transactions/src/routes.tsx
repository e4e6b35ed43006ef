import { NotFoundPage, Route, Routes } from '@bahi/ui';
import { ScreenProviders } from '@bahi/ui/screen';
import { BulkSalePage } from './features/bulk-sale/bulk-sale-page.tsx';
import { ExpensesPage } from './features/expenses/expenses-page.tsx';
import { IncomesPage } from './features/incomes/incomes-page.tsx';
import { PurchasesPage } from './features/purchases/purchases-page.tsx';
import { SalesPage } from './features/sales/sales-page.tsx';
import { TransfersPage } from './features/transfers/transfers-page.tsx';

/** The transactions remote's screens under /transactions (spec section 2, route table). */
export default function TransactionsRoutes(_props: { base: string }) {
  return (
    <ScreenProviders>
      <Routes>
        <Route path="purchases" element={<PurchasesPage />} />
        <Route path="sales" element={<SalesPage />} />
        <Route path="bulk-sale" element={<BulkSalePage />} />
        <Route path="transfers" element={<TransfersPage />} />
        <Route path="expenses" element={<ExpensesPage />} />
        <Route path="incomes" element={<IncomesPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </ScreenProviders>
  );
}

import { NotFoundPage, Page, Route, Routes } from '@bahi/ui';
import { ScreenProviders } from '@bahi/ui/screen';
import { ExpensesPage } from './features/expenses/expenses-page.tsx';
import { IncomesPage } from './features/incomes/incomes-page.tsx';
import { TransfersPage } from './features/transfers/transfers-page.tsx';

/** Screens of this remote still to come (the purchases and sales screens are built elsewhere). */
const PLACEHOLDERS = [
  { path: 'purchases', title: 'Purchases' },
  { path: 'sales', title: 'Sales' },
  { path: 'bulk-sale', title: 'Bulk Sale' },
];

/** The transactions remote's screens under /transactions (spec section 2, route table). */
export default function TransactionsRoutes(_props: { base: string }) {
  return (
    <ScreenProviders>
      <Routes>
        <Route path="transfers" element={<TransfersPage />} />
        <Route path="expenses" element={<ExpensesPage />} />
        <Route path="incomes" element={<IncomesPage />} />
        {PLACEHOLDERS.map((s) => (
          <Route
            key={s.path}
            path={s.path}
            element={<Page title={s.title}>This screen is on its way.</Page>}
          />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </ScreenProviders>
  );
}

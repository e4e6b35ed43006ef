import { NotFoundPage, Page, Route, Routes } from '@bahi/ui';
import { ScreenProviders } from '@bahi/ui/screen';
import { Text } from '@fluentui/react-components';
import { BulkSalePage } from './features/bulk-sale/bulk-sale-page.tsx';
import { PurchasesPage } from './features/purchases/purchases-page.tsx';
import { SalesPage } from './features/sales/sales-page.tsx';

function Pending(props: { title: string }) {
  return (
    <Page title={props.title}>
      <Text>This screen is being built.</Text>
    </Page>
  );
}

/** The transactions remote's screens under /transactions (spec section 2, route table). */
export default function TransactionsRoutes(_props: { base: string }) {
  return (
    <ScreenProviders>
      <Routes>
        <Route path="purchases" element={<PurchasesPage />} />
        <Route path="sales" element={<SalesPage />} />
        <Route path="bulk-sale" element={<BulkSalePage />} />
        <Route path="transfers" element={<Pending title="Collector Transfers" />} />
        <Route path="expenses" element={<Pending title="Expenses" />} />
        <Route path="incomes" element={<Pending title="Other Incomes" />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </ScreenProviders>
  );
}

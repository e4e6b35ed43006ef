import { formatAmount, lazyNamed } from '@bahi/ui';
import { Text } from '@fluentui/react-components';
import { RecordListPage } from '../../shared/record-list-page.tsx';
import { type Sale, useSalesPage } from './api.ts';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const SaleFormDialog = lazyNamed(() => import('./sale-form-dialog.tsx'), 'SaleFormDialog');

/** Sales (spec section 2): the city tab shows the sales to that city's agents. */
export function SalesPage() {
  return (
    <RecordListPage<Sale>
      kind="Sale"
      date={(r) => r.sale_date}
      useRows={useSalesPage}
      columns={[
        { key: 'agent', header: 'Agent', render: (r) => r.agent.name ?? '' },
        { key: 'product', header: 'Product', render: (r) => r.product.name ?? '' },
      ]}
      expanded={(r) => (
        <>
          <Text block size={200}>
            <strong>From Godown:</strong> {r.godown.name ?? ''}
          </Text>
          <Text block size={200}>
            <strong>Clearing Charge:</strong> {formatAmount(r.clearing_charge)} INR
          </Text>
        </>
      )}
      form={SaleFormDialog}
    />
  );
}

import { adjustsWords } from '@bahi/contracts/books-words';
import { formatAmount, formatDate, formatQuantity, formatRate, lazyNamed } from '@bahi/ui';
import { Text } from '@fluentui/react-components';
import { CustomFieldValues } from '../../shared/custom-field-inputs.tsx';
import { RecordListPage } from '../../shared/record-list-page.tsx';
import { type Sale, useSalesPage } from './api.ts';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const SaleFormDialog = lazyNamed(() => import('./sale-form-dialog.tsx'), 'SaleFormDialog');
const ReturnDialog = lazyNamed(() => import('../../shared/return-dialog.tsx'), 'ReturnDialog');

/** Sales (spec section 2): the city tab shows the sales to that city's agents. */
export function SalesPage() {
  return (
    <RecordListPage<Sale>
      kind="Sale"
      title="Sales"
      path="/transactions/sales"
      fetchFallback="Failed to fetch sales."
      emptyText="No sales found."
      date={(r) => r.sale_date}
      useRows={useSalesPage}
      columns={[
        { key: 'date', header: 'Date', render: (r) => formatDate(r.sale_date) },
        { key: 'agent', header: 'Agent', render: (r) => r.agent.name ?? '' },
        { key: 'product', header: 'Product', render: (r) => r.product.name ?? '' },
        { key: 'rate', header: 'Rate', card: 'figure', render: (r) => formatRate(r.rate) },
        { key: 'quantity', header: 'Quantity', card: 'figure', render: (r) => formatQuantity(r.quantity) },
        { key: 'remaining', header: 'Remaining', card: 'figure', render: (r) => formatQuantity(r.remaining) },
        { key: 'total', header: 'Total', card: 'figure', render: (r) => formatAmount(r.total) },
      ]}
      expanded={(r) => (
        <div>
          <Text block size={200}>
            <strong>From Godown:</strong> {r.godown.name ?? ''}
          </Text>
          <Text block size={200}>
            <strong>Clearing Charge:</strong> {formatAmount(r.clearing_charge)} INR
          </Text>
          {r.adjusts ? (
            <Text block size={200}>
              <strong>{adjustsWords(r.adjusts)}</strong>
            </Text>
          ) : null}
          <CustomFieldValues values={r.customFieldValues} />
        </div>
      )}
      form={(sale, cityId, close, template, adjusts) => (
        <SaleFormDialog sale={sale} template={template} adjusts={adjusts} cityId={cityId} onClose={close} />
      )}
      returnDialog={(record, close) => <ReturnDialog kind="Sale" record={record} onClose={close} />}
    />
  );
}

import { adjustsWords } from '@bahi/contracts/books-words';
import { formatAmount, formatDate, formatQuantity, formatRate, lazyNamed } from '@bahi/ui';
import { Text } from '@fluentui/react-components';
import { CustomFieldValues } from '../../shared/custom-field-inputs.tsx';
import { RecordListPage } from '../../shared/record-list-page.tsx';
import { type Purchase, usePurchasesPage } from './api.ts';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const PurchaseFormDialog = lazyNamed(() => import('./purchase-form-dialog.tsx'), 'PurchaseFormDialog');
const ReturnDialog = lazyNamed(() => import('../../shared/return-dialog.tsx'), 'ReturnDialog');

const name = (n: { name: string | null } | null) => n?.name ?? '';

/** Purchases (spec section 2). */
export function PurchasesPage() {
  return (
    <RecordListPage<Purchase>
      kind="Purchase"
      title="Purchases"
      path="/transactions/purchases"
      fetchFallback="Failed to fetch purchases."
      emptyText="No purchases found."
      date={(r) => r.purchase_date}
      useRows={usePurchasesPage}
      columns={[
        { key: 'date', header: 'Date', render: (r) => formatDate(r.purchase_date) },
        { key: 'type', header: 'Type', render: (r) => r.type },
        { key: 'funder', header: 'Funder', render: (r) => name(r.funder) },
        { key: 'product', header: 'Product', render: (r) => name(r.product) },
        { key: 'godown', header: 'Godown', render: (r) => name(r.godown) || '-' },
        { key: 'rate', header: 'Rate', card: 'figure', render: (r) => formatRate(r.rate) },
        { key: 'quantity', header: 'Quantity', card: 'figure', render: (r) => formatQuantity(r.quantity) },
        { key: 'remaining', header: 'Remaining', card: 'figure', render: (r) => formatQuantity(r.remaining) },
        { key: 'total', header: 'Total', card: 'figure', render: (r) => formatAmount(r.total) },
      ]}
      expanded={(r) => (
        <div>
          <Text block size={200}>
            <strong>Collector:</strong> {name(r.collector) || '-'}
          </Text>
          {r.type === 'Direct' ? (
            <Text block size={200}>
              <strong>Agent:</strong> {name(r.agent)}
            </Text>
          ) : null}
          {/[1-9]/.test(r.commission) ? (
            <Text block size={200}>
              <strong>Commission:</strong> {formatAmount(r.commission)}
            </Text>
          ) : null}
          {r.adjusts ? (
            <Text block size={200}>
              <strong>{adjustsWords(r.adjusts)}</strong>
            </Text>
          ) : null}
          <CustomFieldValues values={r.customFieldValues} />
        </div>
      )}
      form={(purchase, cityId, close, template, adjusts) => (
        <PurchaseFormDialog
          purchase={purchase}
          template={template}
          adjusts={adjusts}
          cityId={cityId}
          onClose={close}
        />
      )}
      returnDialog={(record, close) => <ReturnDialog kind="Purchase" record={record} onClose={close} />}
    />
  );
}

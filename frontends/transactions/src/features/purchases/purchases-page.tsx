import { formatAmount, lazyNamed } from '@bahi/ui';
import { Text } from '@fluentui/react-components';
import { RecordListPage } from '../../shared/record-list-page.tsx';
import { type Purchase, usePurchasesPage } from './api.ts';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const PurchaseFormDialog = lazyNamed(() => import('./purchase-form-dialog.tsx'), 'PurchaseFormDialog');

const name = (n: { name: string | null } | null) => n?.name ?? '';

/** Purchases (spec section 2). */
export function PurchasesPage() {
  return (
    <RecordListPage<Purchase>
      kind="Purchase"
      date={(r) => r.purchase_date}
      useRows={usePurchasesPage}
      columns={[
        { key: 'type', header: 'Type', render: (r) => r.type },
        { key: 'funder', header: 'Funder', render: (r) => name(r.funder) },
        { key: 'product', header: 'Product', render: (r) => name(r.product) },
        { key: 'godown', header: 'Godown', render: (r) => name(r.godown) || '-' },
      ]}
      expanded={(r) => (
        <>
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
        </>
      )}
      form={PurchaseFormDialog}
    />
  );
}

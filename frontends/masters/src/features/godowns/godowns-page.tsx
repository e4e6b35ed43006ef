import { formatQuantity, lazyNamed } from '@bahi/ui';
import type { Party } from '@bahi/ui/screen';
import { Amount, currentColumn, PartyListPage, phoneColumn } from '../../shared/party-list-page.tsx';

// Loaded with the dialog's first opening (forms do not weigh on the list's first screen).
const ClearingDialog = lazyNamed(() => import('./clearing-dialog.tsx'), 'ClearingDialog');

/** 'Cumin: 85.0000' per product held, or 'Empty' (spec section 2). */
export function StockList(props: { stock: Party['stock'] }) {
  const stock = props.stock ?? [];
  if (stock.length === 0) return <>Empty</>;
  return (
    <ul style={{ margin: 0, padding: 0, listStyle: 'none' }}>
      {stock.map((s) => (
        <li key={s.product_id ?? s.product_name} style={{ whiteSpace: 'nowrap' }}>
          {s.product_name}: {formatQuantity(s.quantity)}
        </li>
      ))}
    </ul>
  );
}

/** Godowns (spec section 2): Name, Stock, Clearing Balance, Current Balance, Phone; Pay Clearing. */
export function GodownsPage() {
  return (
    <PartyListPage
      kind="Godown"
      title="Godowns"
      withCity={false}
      columns={[
        { key: 'stock', header: 'Stock', width: '220px', render: (g) => <StockList stock={g.stock} /> },
        {
          key: 'clearing',
          header: 'Clearing Balance',
          render: (g) => <Amount value={g.clearing_balance} currency="INR" />,
        },
        currentColumn('Godown'),
        phoneColumn,
      ]}
      action={{
        label: 'Pay Clearing',
        dialog: (party, close) => <ClearingDialog godown={party} onClose={close} />,
      }}
    />
  );
}

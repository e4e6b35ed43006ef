import type { ImportPreview } from '@bahi/contracts';
import { type Column, DataTable, formatAmount, formatQuantity } from '@bahi/ui';
import { Text } from '@fluentui/react-components';

type Effect = NonNullable<ImportPreview['effect']>;
type Line = Effect['accounts'][number];
type Stock = Effect['stock'][number];

const accountColumns: Column<Line>[] = [
  { key: 'name', header: 'Account', card: 'title', render: (l) => `${l.name} (${l.kind})` },
  { key: 'currency', header: 'Currency', render: (l) => l.currency },
  { key: 'before', header: 'Before', card: 'figure', render: (l) => formatAmount(l.before) },
  { key: 'after', header: 'After', card: 'figure', render: (l) => formatAmount(l.after) },
];
const stockColumns: Column<Stock>[] = [
  { key: 'godown', header: 'Godown', card: 'title', render: (s) => s.godown },
  { key: 'product', header: 'Product', render: (s) => s.product },
  { key: 'before', header: 'Before', card: 'figure', render: (s) => formatQuantity(s.before) },
  { key: 'change', header: 'In / out', card: 'figure', render: (s) => formatQuantity(s.change) },
  { key: 'after', header: 'After', card: 'figure', render: (s) => formatQuantity(s.after) },
];

/**
 * A transactions file's effect on the books (issue #31): each account the rows post to, with its
 * balance now and after the commit, and the stock they move, as the dry run of one entry shows it.
 */
export function BooksEffect({
  effect,
  fileName,
  records,
}: {
  effect: Effect;
  fileName: string;
  /** "1 sale", "3 payments". */
  records(n: number): string;
}) {
  return (
    <section aria-label="Effect on the books">
      <Text weight="semibold">What committing {fileName} does to the books</Text>
      {effect.totals.map((t) => (
        <Text key={t.currency} block>
          {t.currency}: {records(t.records)}, {formatAmount(t.amount ?? '0.00')} in all
        </Text>
      ))}
      <DataTable
        label="Accounts before and after"
        columns={accountColumns}
        rows={effect.accounts.filter((l) => l.kind !== 'Nominal')}
        rowKey={(l) => l.account}
        emptyText="No account moves."
        cards
      />
      {effect.stock.length ? (
        <DataTable
          label="Stock moved"
          columns={stockColumns}
          rows={effect.stock}
          rowKey={(s) => `${s.godown_id}:${s.product_id}`}
          emptyText="No stock moves."
          cards
        />
      ) : null}
    </section>
  );
}

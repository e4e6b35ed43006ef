import { ErrorAlert, errorText, formatQuantity, Page, Panel, useSearchParams } from '@bahi/ui';
import { showDay, useQuery } from '@bahi/ui/screen';
import { makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { DownloadButtons, WhatsAppButton } from '../../shared/report-files.tsx';
import { type GodownStock, godownsOf, stockQuery } from './api.ts';

const useStyles = makeStyles({
  // One column on a phone (390 px), as many 280 px columns as fit on a wide screen.
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 280px), 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
  },
  table: { width: '100%', borderCollapse: 'collapse' },
  th: {
    textAlign: 'left',
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground3,
    padding: `${tokens.spacingVerticalXS} 0`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  td: {
    padding: `${tokens.spacingVerticalXS} 0`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    overflowWrap: 'anywhere',
  },
  quantity: { textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
  empty: { padding: tokens.spacingVerticalL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
  caption: { color: tokens.colorNeutralForeground3 },
});

function GodownCard({ godown }: { godown: GodownStock }) {
  const styles = useStyles();
  return (
    <Panel title={godown.name} role="region" aria-label={godown.name}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col" className={styles.th}>
              Product
            </th>
            <th scope="col" className={`${styles.th} ${styles.quantity}`}>
              Quantity
            </th>
          </tr>
        </thead>
        <tbody>
          {godown.rows.map((r) => (
            // The quantity as the books hold it: decimal text at 4 places, exactly (no JS number).
            <tr key={r.product_id}>
              <td className={styles.td}>{r.product_name}</td>
              <td className={`${styles.td} ${styles.quantity}`}>{formatQuantity(r.quantity)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

/**
 * Stock Report (spec section 2): a card per godown (two godowns of one name are two cards)
 * listing each product and its quantity; PDF, Excel and WhatsApp of the whole report. A link
 * carrying `asOf` (time travel) shows the stock at the end of that day.
 */
export function StockPage() {
  const styles = useStyles();
  const [params] = useSearchParams();
  const asOf = params.get('asOf') ?? '';
  const query = useQuery(stockQuery({ asOf }));
  const godowns = query.data && !query.isError ? godownsOf(query.data) : [];
  return (
    <Page
      title="Stock Report"
      actions={
        <DownloadButtons path="/reports/stock/download" params={{ asOf }} fileName="stock_report">
          <WhatsAppButton reportName="stock" data={{ asOf }} />
        </DownloadButtons>
      }
    >
      {asOf ? (
        <Text size={200} className={styles.caption}>
          Stock as the books stood at the end of {showDay(asOf)}.
        </Text>
      ) : null}
      <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch stock report.') : null} />
      {query.isPending ? (
        <Spinner size="small" label="Loading" />
      ) : godowns.length === 0 ? (
        query.isError ? null : (
          <div className={styles.empty}>No stock available in any godown.</div>
        )
      ) : (
        <div className={styles.grid}>
          {godowns.map((g) => (
            <GodownCard key={g.godownId} godown={g} />
          ))}
        </div>
      )}
    </Page>
  );
}

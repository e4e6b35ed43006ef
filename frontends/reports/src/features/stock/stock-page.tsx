import { ErrorAlert, errorText, formatQuantity, Page, Panel } from '@bahi/ui';
import { compareDecimal, subtractDecimal, useQuery } from '@bahi/ui/screen';
import { makeStyles, Spinner, tokens } from '@fluentui/react-components';
import { ClosedNote } from '../../shared/closed-note.tsx';
import { DownloadButtons, WhatsAppButton } from '../../shared/report-files.tsx';
import { TimeTravelBar, useTimeTravel } from '../../shared/time-travel.tsx';
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
  change: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  gone: { color: tokens.colorNeutralForeground3 },
});

/** A quantity's change since the moment compared with: '+5.0000', '-2.5000', or null for none. */
function quantityChange(now: string, then: string): string | null {
  const d = subtractDecimal(now, then, 4);
  const c = compareDecimal(d, '0');
  return c === 0 ? null : `${c > 0 ? '+' : ''}${formatQuantity(d)}`;
}

function GodownCard({ godown, before }: { godown: GodownStock; before?: GodownStock | null | undefined }) {
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
          {godown.rows.map((r) => {
            // Compare: the change since the moment compared with (`before` null: the godown held nothing then).
            const then =
              before === undefined
                ? undefined
                : (before?.rows.find((b) => b.product_id === r.product_id)?.quantity ?? '0');
            const change = then === undefined ? undefined : quantityChange(r.quantity, then);
            return (
              // The quantity as the books hold it: decimal text at 4 places, exactly (no JS number).
              <tr key={r.product_id}>
                <td className={styles.td}>{r.product_name}</td>
                <td className={`${styles.td} ${styles.quantity}`}>
                  {formatQuantity(r.quantity)}
                  {change ? <span className={styles.change}> ({change} since)</span> : null}
                </td>
              </tr>
            );
          })}
          {(before?.rows ?? [])
            .filter((b) => !godown.rows.some((r) => r.product_id === b.product_id))
            .map((b) => (
              <tr key={`gone:${b.product_id}`} className={styles.gone}>
                <td className={styles.td}>{b.product_name}</td>
                <td className={`${styles.td} ${styles.quantity}`}>
                  {formatQuantity('0')}
                  <span className={styles.change}> (-{formatQuantity(b.quantity)} since)</span>
                </td>
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
  const tt = useTimeTravel();
  const at = { asOf: tt.asOf, knownAt: tt.knownAt };
  const query = useQuery(stockQuery(at));
  const baseline = useQuery({ ...stockQuery({ asOf: tt.asOf, knownAt: tt.compare }), enabled: !!tt.compare });
  const godowns = query.data && !query.isError ? godownsOf(query.data) : [];
  const then = tt.compare && baseline.data && !baseline.isError ? godownsOf(baseline.data) : undefined;
  return (
    <Page
      title="Stock Report"
      actions={
        <DownloadButtons path="/reports/stock/download" params={at} fileName="stock_report">
          <WhatsAppButton reportName="stock" data={at} />
        </DownloadButtons>
      }
    >
      <TimeTravelBar tt={tt} />
      <ClosedNote tt={tt} />
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
            <GodownCard
              key={g.godownId}
              godown={g}
              before={then ? (then.find((t) => t.godownId === g.godownId) ?? null) : undefined}
            />
          ))}
        </div>
      )}
    </Page>
  );
}

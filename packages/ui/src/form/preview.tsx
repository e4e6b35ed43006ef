import type { DryRunAnswer } from '@bahi/contracts';
import { ApiError, errorText, formatAmount, formatQuantity, request, useDebouncedValue } from '@bahi/ui';
import { keepPreviousData, useQuery } from '@bahi/ui/screen';
import { makeStyles, mergeClasses, Spinner, Text, tokens } from '@fluentui/react-components';
import type { z } from 'zod';

/** What a write would post (POST/PUT with `X-Bahi-Dry-Run: true`, issue #14): the contract's dry-run answer. */
export type Preview = DryRunAnswer;

export const DRY_RUN_HEADER = 'X-Bahi-Dry-Run';

/**
 * The server's dry run of the form's request, once the values pass the request schema and have
 * settled for 400 ms: the same decider and the same refusals as the save, nothing written.
 * `current` is false while what is shown is not yet the dry run of the values on screen (they
 * changed since, or the answer is on its way): never a preview of an earlier entry passed off as
 * this one's (issue #25). Values that do not pass the schema show no preview at all.
 */
export function usePreview<S extends z.ZodType>(
  method: 'POST' | 'PUT',
  path: string,
  schema: S,
  values: unknown,
  toBody: (parsed: z.output<S>) => unknown,
) {
  const settled = useDebouncedValue(values, 400);
  const now = schema.safeParse(values);
  const parsed = schema.safeParse(settled);
  const body = now.success && parsed.success ? toBody(parsed.data) : undefined;
  const query = useQuery({
    queryKey: ['transactions', 'preview', method, path, body],
    queryFn: ({ signal }) =>
      request<Preview>(method, path, { body, signal, headers: { [DRY_RUN_HEADER]: 'true' } }),
    enabled: body !== undefined,
    placeholderData: body === undefined ? undefined : keepPreviousData,
    retry: false,
    staleTime: 0,
  });
  const settledOnScreen = now.success && JSON.stringify(toBody(now.data)) === JSON.stringify(body);
  return { query, current: settledOnScreen && !query.isPlaceholderData && !query.isFetching };
}

const useStyles = makeStyles({
  box: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  table: { borderCollapse: 'collapse', width: '100%', fontSize: tokens.fontSizeBase200 },
  cell: { padding: `2px ${tokens.spacingHorizontalXS}`, textAlign: 'right', whiteSpace: 'nowrap' },
  name: { padding: `2px ${tokens.spacingHorizontalXS}`, textAlign: 'left' },
  refused: { color: tokens.colorPaletteRedForeground1 },
  wrap: { overflowX: 'auto' },
  // Figures of other values than those on screen, while the new dry run is on its way.
  updating: { opacity: 0.55 },
});

/** The preview under a form: each account's debit or credit and its balance before and after. */
export function PreviewPanel(props: { preview: ReturnType<typeof usePreview> }) {
  const styles = useStyles();
  const { query: preview, current } = props.preview;
  if (preview.fetchStatus === 'idle' && !preview.data && !preview.error) return null;
  const refusal = preview.error instanceof ApiError && preview.error.status < 500;
  return (
    <section
      className={mergeClasses(styles.box, !current && styles.updating)}
      aria-label="Preview"
      aria-live="polite"
      aria-busy={!current}
    >
      <Text weight="semibold" size={200}>
        Preview {!current ? <Spinner size="extra-tiny" style={{ display: 'inline-flex' }} /> : null}
      </Text>
      {preview.error ? (
        <Text
          size={200}
          className={refusal ? styles.refused : undefined}
          role={refusal ? 'alert' : undefined}
        >
          {refusal ? errorText(preview.error) : 'The preview is not available right now.'}
        </Text>
      ) : preview.data ? (
        <div className={styles.wrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th className={styles.name}>Account</th>
                <th className={styles.cell}>Debit</th>
                <th className={styles.cell}>Credit</th>
                <th className={styles.cell}>Balance</th>
              </tr>
            </thead>
            <tbody>
              {preview.data.lines.map((l) => (
                <tr key={l.account}>
                  <td className={styles.name}>{l.name}</td>
                  <td className={styles.cell}>{/[1-9]/.test(l.debit) ? formatAmount(l.debit) : ''}</td>
                  <td className={styles.cell}>{/[1-9]/.test(l.credit) ? formatAmount(l.credit) : ''}</td>
                  <td className={styles.cell}>
                    {formatAmount(l.before)} → {formatAmount(l.after)} {l.currency}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {preview.data.stock.map((s) => (
            <Text key={`${s.godown_id}:${s.product_id}`} block size={200}>
              Stock {s.godown} / {s.product}: {formatQuantity(s.before)} → {formatQuantity(s.after)}
            </Text>
          ))}
        </div>
      ) : null}
    </section>
  );
}

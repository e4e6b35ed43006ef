import { ErrorAlert, errorText, useNavigate, useSearchParams } from '@bahi/ui';
import { adjustedRecordWords, showDay, useQuery } from '@bahi/ui/screen';
import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Link,
  makeStyles,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useCallback, useEffect } from 'react';
import { type RecordChange, type RecordHistory, recordQuery } from './records-api.ts';

const LABEL: Record<string, string> = {
  Purchase: 'Purchase',
  Sale: 'Sale',
  PurchaseReturn: 'Purchase return',
  SaleReturn: 'Sale return',
  Payment: 'Payment',
  ClearingPayout: 'Clearing payout',
  SalaryPayment: 'Salary payment',
  Transfer: 'Collector transfer',
  Expense: 'Expense',
  Income: 'Income',
};

const ACTION_COLOR = { CREATE: 'success', UPDATE: 'brand', DELETE: 'danger' } as const;
const HIDDEN = new Set(['id', 'created_at', 'updated_at', 'createdAt', 'updatedAt', 'password']);

/** 'paid_from_entity_id' -> 'Paid from entity'. */
export function fieldLabel(key: string): string {
  const words = key.replace(/_id$/, '').replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value as a person reads it: a name for an id, 'Yes'/'No', '—' for nothing. */
export function fieldValue(value: unknown, names: Record<string, string>): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') {
    if (names[value]) return names[value];
    // A business date (or its ISO midnight) as the app shows dates.
    if (/^\d{4}-\d{2}-\d{2}(T00:00:00(\.000)?Z)?$/.test(value)) return showDay(value.slice(0, 10));
    return value;
  }
  if (typeof value === 'number') return String(value);
  // The record an adjustment corrects (issue #30): 'Purchase of 15 Oct 2026'.
  const ref = value as { kind?: unknown; date?: unknown };
  if (typeof ref === 'object' && typeof ref.kind === 'string' && typeof ref.date === 'string')
    return adjustedRecordWords({ kind: ref.kind, date: ref.date });
  return JSON.stringify(value);
}

/** What one change did: each field whose value differs, before and after. */
export function changedFields(change: RecordChange): Array<{ key: string; before: unknown; after: unknown }> {
  const before = change.old_data ?? {};
  const after = change.new_data ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !HIDDEN.has(k));
  return keys
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((k) => ({ key: k, before: before[k], after: after[k] }));
}

const useStyles = makeStyles({
  surface: { maxWidth: 'min(760px, calc(100vw - 24px))', width: '100%' },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'minmax(120px, max-content) 1fr',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalXXS,
    margin: 0,
    '& dt': { color: tokens.colorNeutralForeground3 },
    '& dd': { margin: 0, overflowWrap: 'anywhere' },
  },
  history: { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalM },
  change: {
    borderLeft: `3px solid ${tokens.colorNeutralStroke1}`,
    paddingLeft: tokens.spacingHorizontalM,
  },
  head: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  diff: {
    width: '100%',
    borderCollapse: 'collapse',
    marginTop: tokens.spacingVerticalXS,
    fontSize: tokens.fontSizeBase200,
  },
  cell: { padding: `2px ${tokens.spacingHorizontalS}`, verticalAlign: 'top', overflowWrap: 'anywhere' },
  before: { color: tokens.colorPaletteRedForeground1, textDecorationLine: 'line-through' },
  after: { color: tokens.colorPaletteGreenForeground1 },
  section: { marginTop: tokens.spacingVerticalL, marginBottom: tokens.spacingVerticalS },
});

function Change(props: { change: RecordChange; names: Record<string, string>; own: string }) {
  const styles = useStyles();
  const c = props.change;
  const fields = changedFields(c);
  const label = LABEL[c.model_name] ?? c.model_name;
  return (
    <li className={styles.change}>
      <div className={styles.head}>
        <Badge appearance="tint" color={ACTION_COLOR[c.action_type]}>
          {c.action_type}
        </Badge>
        {c.model_name !== props.own ? <Text weight="semibold">{label}</Text> : null}
        <Text>by {c.user?.name ?? 'System/Deleted User'}</Text>
        <Text size={200}>
          {new Date(c.created_at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' })}
        </Text>
      </div>
      {fields.length ? (
        <table className={styles.diff} aria-label={`${c.action_type} ${label}: fields`}>
          <thead>
            <tr>
              <th className={styles.cell} scope="col" style={{ textAlign: 'left' }}>
                Field
              </th>
              <th className={styles.cell} scope="col" style={{ textAlign: 'left' }}>
                Before
              </th>
              <th className={styles.cell} scope="col" style={{ textAlign: 'left' }}>
                After
              </th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f.key}>
                <td className={styles.cell}>{fieldLabel(f.key)}</td>
                <td className={styles.cell}>
                  <span className={c.action_type === 'CREATE' ? undefined : styles.before}>
                    {c.action_type === 'CREATE' ? '' : fieldValue(f.before, props.names)}
                  </span>
                </td>
                <td className={styles.cell}>
                  <span className={styles.after}>
                    {c.action_type === 'DELETE' ? '' : fieldValue(f.after, props.names)}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </li>
  );
}

function RecordBody(props: { record: RecordHistory }) {
  const styles = useStyles();
  const { record } = props;
  const fields = Object.entries(record.data ?? {}).filter(([k]) => !HIDDEN.has(k));
  return (
    <>
      <dl className={styles.grid} aria-label="Record">
        {fields.map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt>{fieldLabel(k)}</dt>
            <dd>{fieldValue(v, record.names)}</dd>
          </div>
        ))}
      </dl>
      <Text as="h3" weight="semibold" size={400} block className={styles.section}>
        History
      </Text>
      <ol className={styles.history} aria-label="History">
        {record.history.map((c) => (
          <Change key={c.id} change={c} names={record.names} own={record.type} />
        ))}
      </ol>
    </>
  );
}

/**
 * The record behind a report line, opened from the line (the `record` URL parameter,
 * 'Purchase.<id>'), with its history from the activity log: who changed what, before and after.
 * Esc or Close returns to the report as it was (filters, scroll position) and to the line.
 */
export function RecordDrilldown() {
  const [params, setParams] = useSearchParams();
  const value = params.get('record') ?? '';
  const [type = '', id = ''] = value.split('.');
  const open = !!(type && id);
  const query = useQuery({ ...recordQuery(type, id), enabled: open });
  // Closed some other way (the browser's Back): the next record may come from a link.
  useEffect(() => {
    if (!open) openedHere = false;
  }, [open]);
  const navigate = useNavigate();
  const close = useCallback(() => {
    const back = opener;
    opener = null;
    // Opened from a line: Back, so the history holds the report once. From a link: drop it.
    if (openedHere) navigate(-1);
    else
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete('record');
          return next;
        },
        { replace: true },
      );
    openedHere = false;
    // After the dialog is gone: focus the line that opened it (the scroller kept its place).
    setTimeout(() => back?.isConnected && back.focus(), 0);
  }, [setParams, navigate]);
  const label = LABEL[type] ?? type;
  return (
    <Dialog open={open} onOpenChange={(_, d) => (d.open ? undefined : close())}>
      <DialogSurface className={useStyles().surface} aria-label={`${label} record`}>
        <DialogBody>
          <DialogTitle>
            {label}{' '}
            {query.data?.deleted ? (
              <Badge color="danger" appearance="filled">
                Deleted
              </Badge>
            ) : null}
          </DialogTitle>
          <DialogContent>
            {query.isPending ? <Spinner size="small" label="Loading" /> : null}
            <ErrorAlert text={query.isError ? errorText(query.error, 'Failed to fetch the record.') : null} />
            {query.data ? <RecordBody record={query.data} /> : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={close}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** The line's button that opened the record (focused again on close), and whether it was here. */
let opener: HTMLElement | null = null;
let openedHere = false;

/** Open a line's record: the `record` URL parameter, a history entry of its own. */
export function useOpenRecord(): (record: { type: string; id: string }) => void {
  const [, setParams] = useSearchParams();
  return useCallback(
    (record) => {
      opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      openedHere = true;
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('record', `${record.type}.${record.id}`);
          return next;
        },
        { replace: false },
      );
    },
    [setParams],
  );
}

/**
 * A report line's text as the way to its record (a button styled as a link; its name says the
 * line and its date), or the plain text for a line without one.
 */
export function RecordLink(props: {
  text: string;
  date: string;
  record: { type: string; id: string } | undefined;
  onOpen(record: { type: string; id: string }): void;
  className?: string;
}) {
  const { record } = props;
  if (!record) return <>{props.text}</>;
  return (
    <Link
      as="button"
      className={props.className}
      onClick={() => props.onOpen(record)}
      aria-label={`${props.text} of ${showDay(props.date)}: open the record`}
      // The whole words on hover where the column cuts them ('... Imported from <file> by <user>').
      title={props.text}
    >
      {props.text}
    </Link>
  );
}

import {
  IMPORT_KINDS,
  type ImportKind,
  type ImportPreview,
  type ImportProgress,
  type ImportRow,
  type ImportSummary,
} from '@bahi/contracts';
import {
  type Column,
  ConfirmDialog,
  DataTable,
  ErrorAlert,
  errorText,
  formatAmount,
  formatCount,
  formatDateTime,
  Page,
  Panel,
  useSnackbar,
} from '@bahi/ui';
import { ScreenProviders, useQuery } from '@bahi/ui/screen';
import {
  Badge,
  Button,
  Field,
  makeStyles,
  ProgressBar,
  Select,
  Switch,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  downloadTemplate,
  importProgressQuery,
  importQuery,
  importsQuery,
  newProgressKey,
  useCommitImport,
  useUndoImport,
  useUploadImport,
} from './api.ts';
import { BooksEffect } from './books-effect.tsx';

const KIND_LABELS: Record<ImportKind, string> = {
  funders: 'Funders',
  cities: 'Cities',
  products: 'Products',
  agents: 'Agents',
  collectors: 'Collectors',
  godowns: 'Godowns',
  purchases: 'Purchases',
  sales: 'Sales',
  payments: 'Payments',
  expenses: 'Expenses',
  incomes: 'Incomes',
};
/** The masters a kind's template lists for looking names up (none: nothing to look up). */
const LOOK_UPS: Partial<Record<ImportKind, string>> = {
  funders: 'the cities',
  agents: 'the cities',
  collectors: 'the cities',
  purchases: 'the cities, funders, agents, collectors, products and godowns',
  sales: 'the cities, agents, products and godowns',
  payments: 'the cities, funders, agents, collectors and godowns',
  expenses: 'the cities, collectors and godowns',
  incomes: 'the cities, collectors and godowns',
};
/** The kinds that record transactions: their preview shows the accounts and stock they move. */
const TRANSACTIONS: ReadonlySet<ImportKind> = new Set([
  'purchases',
  'sales',
  'payments',
  'expenses',
  'incomes',
]);
/** Where the records of a kind are listed once imported. */
const LISTS: Record<ImportKind, string> = {
  funders: '/masters/funders',
  cities: '/masters/cities',
  products: '/masters/products',
  agents: '/masters/agents',
  collectors: '/masters/collectors',
  godowns: '/masters/godowns',
  purchases: '/transactions/purchases',
  sales: '/transactions/sales',
  payments: '/reports/payments',
  expenses: '/transactions/expenses',
  incomes: '/transactions/incomes',
};
const PAGE_SIZES = [25, 50, 100];
/** "1 funder", "2 funders", "1 city". */
const count = (n: number, kind: ImportKind) =>
  `${formatCount(n)} ${n === 1 ? KIND_LABELS[kind].toLowerCase().replace(/ies$/, 'y').replace(/s$/, '') : KIND_LABELS[kind].toLowerCase()}`;

const useStyles = makeStyles({
  steps: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(280px, 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
  },
  // One column no wider than the panel: a wide table (12 purchase columns) scrolls inside it.
  form: { display: 'grid', gap: tokens.spacingVerticalM, gridTemplateColumns: 'minmax(0, 1fr)' },
  buttons: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  summary: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  muted: { color: tokens.colorNeutralForeground3 },
  wrong: { color: tokens.colorPaletteRedForeground1, display: 'block', fontSize: tokens.fontSizeBase200 },
  wrongCell: {
    outline: `2px solid ${tokens.colorPaletteRedBorder2}`,
    outlineOffset: '2px',
    borderRadius: tokens.borderRadiusSmall,
    display: 'block',
    padding: `0 ${tokens.spacingHorizontalXXS}`,
  },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL, display: 'grid', gap: tokens.spacingVerticalXS },
  totals: { display: 'grid', gap: tokens.spacingVerticalXS },
  hidden: { display: 'none' },
  badge: { whiteSpace: 'nowrap' },
  file: {
    padding: 0,
    minWidth: 0,
    textAlign: 'start',
    overflowWrap: 'anywhere',
    fontWeight: tokens.fontWeightSemibold,
  },
  value: { overflowWrap: 'anywhere' },
});

/** Settings > Import (issue #31; Admin and Manager): template, upload, the checked preview, commit. */
export function ImportPage() {
  return (
    <ScreenProviders>
      <Import />
    </ScreenProviders>
  );
}

function Import() {
  const styles = useStyles();
  const notify = useSnackbar();
  const [params, setParams] = useSearchParams();
  const kind = (IMPORT_KINDS as readonly string[]).includes(params.get('kind') ?? '')
    ? (params.get('kind') as ImportKind)
    : 'funders';
  const id = params.get('id');
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useUploadImport();
  const commit = useCommitImport();
  const preview = useQuery({ ...importQuery(id ?? ''), enabled: Boolean(id) });
  const [progressKey, setProgressKey] = useState<string | null>(null);
  const progress = useQuery(importProgressQuery(commit.isPending ? progressKey : null));
  const [templateError, setTemplateError] = useState<string | null>(null);

  const setUrl = (next: { kind?: ImportKind; id?: string | null }) => {
    const p = new URLSearchParams(params);
    if (next.kind) p.set('kind', next.kind);
    if (next.id === null) p.delete('id');
    else if (next.id) p.set('id', next.id);
    setParams(p);
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    commit.reset();
    try {
      const answer = await upload.mutateAsync({ kind, file });
      setUrl({ id: answer.id });
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const onCommit = async (p: ImportPreview) => {
    const key = newProgressKey();
    setProgressKey(key);
    const answer = await commit.mutateAsync({ id: p.id, progressKey: key });
    notify(
      `Imported ${formatCount(answer.records)} ${KIND_LABELS[p.kind].toLowerCase()} from ${p.file_name}.`,
    );
  };

  const template = async (format: 'xlsx' | 'csv') => {
    setTemplateError(null);
    try {
      await downloadTemplate(kind, format);
    } catch (error) {
      setTemplateError(errorText(error, 'The template could not be downloaded.'));
    }
  };

  const data = id ? preview.data : undefined;
  return (
    <Page title="Import">
      <Text>
        Bring masters and past purchases, sales, payments, expenses and incomes in from Excel or CSV. Every
        row is checked as if it were typed in, and nothing is saved until you commit; then the whole file is
        saved at once, or nothing is.
      </Text>
      <div className={styles.steps}>
        <Panel title="1. Template" className={styles.form}>
          <Field label="What to import">
            <Select
              value={kind}
              onChange={(_, d) => {
                commit.reset();
                upload.reset();
                const p = new URLSearchParams(params);
                p.set('kind', d.value);
                p.delete('id');
                setParams(p);
              }}
            >
              {IMPORT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABELS[k]}
                </option>
              ))}
            </Select>
          </Field>
          <Text className={styles.muted}>
            The Excel template has the columns, a Rules sheet, an Example sheet
            {LOOK_UPS[kind] ? ` and ${LOOK_UPS[kind]} in Bahi to look names up` : ''}.
          </Text>
          <div className={styles.buttons}>
            <Button onClick={() => void template('xlsx')}>Download Excel template</Button>
            <Button appearance="subtle" onClick={() => void template('csv')}>
              CSV template
            </Button>
          </div>
          <ErrorAlert text={templateError} />
        </Panel>
        <Panel title="2. Upload" className={styles.form}>
          <Text className={styles.muted}>
            An .xlsx workbook or a CSV file (UTF-8), at most 5 MB and 20,000 rows.
          </Text>
          <input
            ref={fileInput}
            className={styles.hidden}
            type="file"
            aria-label="File to import"
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(e) => void onFile(e.target.files?.[0]).catch(() => undefined)}
          />
          <div className={styles.buttons}>
            <Button
              appearance="primary"
              disabled={upload.isPending}
              onClick={() => fileInput.current?.click()}
            >
              {upload.isPending ? 'Checking…' : 'Choose file'}
            </Button>
          </div>
          {upload.isPending ? <ProgressBar aria-label="Checking the file" /> : null}
          <ErrorAlert
            text={upload.isError ? errorText(upload.error, 'The file could not be uploaded.') : null}
          />
        </Panel>
      </div>
      {id && preview.isError ? (
        <ErrorAlert text={errorText(preview.error, 'The import could not be loaded.')} />
      ) : null}
      {data ? (
        <PreviewPanel
          // A new upload starts on page 1 with every row shown.
          key={data.id}
          preview={data}
          committing={commit.isPending}
          progress={commit.isPending ? progress.data : undefined}
          commitError={commit.isError ? errorText(commit.error, 'The import could not be committed.') : null}
          onCommit={() => void onCommit(data).catch(() => undefined)}
        />
      ) : null}
      <History onOpen={(row) => setUrl({ kind: row.kind, id: row.id })} />
    </Page>
  );
}

const STATUS: Record<
  ImportSummary['status'],
  { label: string; color: 'success' | 'danger' | 'warning' | 'informative' }
> = {
  valid: { label: 'Not committed', color: 'informative' },
  invalid: { label: 'Not ready', color: 'danger' },
  committed: { label: 'Committed', color: 'success' },
  undone: { label: 'Undone', color: 'warning' },
};

/** The past uploads, newest first; a committed one can be undone as a whole. */
function History(props: { onOpen(row: ImportSummary): void }) {
  const styles = useStyles();
  const notify = useSnackbar();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const list = useQuery(importsQuery(page, pageSize));
  const undo = useUndoImport();
  const [undoing, setUndoing] = useState<ImportSummary | null>(null);
  const [undoError, setUndoError] = useState<string | null>(null);

  const confirm = async () => {
    const row = undoing;
    if (!row) return;
    setUndoError(null);
    try {
      const answer = await undo.mutateAsync(row.id);
      notify(`Undid the import of ${row.file_name}: ${count(answer.records, row.kind)} reversed.`);
    } catch (error) {
      setUndoError(errorText(error, 'The import could not be undone.'));
    } finally {
      setUndoing(null);
    }
  };

  const columns: Column<ImportSummary>[] = [
    {
      key: 'file',
      header: 'File',
      card: 'title',
      render: (r) => (
        <Button appearance="transparent" className={styles.file} onClick={() => props.onOpen(r)}>
          {r.file_name}
        </Button>
      ),
    },
    { key: 'kind', header: 'Kind', render: (r) => KIND_LABELS[r.kind] ?? r.kind },
    { key: 'rows', header: 'Rows', render: (r) => formatCount(r.rows_total) },
    {
      key: 'by',
      header: 'By',
      render: (r) => r.committed?.by?.name ?? r.uploaded_by?.name ?? 'System/Deleted User',
    },
    {
      key: 'when',
      header: 'When',
      render: (r) => formatDateTime(r.committed?.at ?? r.created_at),
    },
    {
      key: 'status',
      header: 'Status',
      render: (r) => (
        <span>
          <Badge appearance="tint" color={STATUS[r.status].color} className={styles.badge}>
            {STATUS[r.status].label}
          </Badge>
          {r.undone ? (
            <Text block size={200} className={styles.muted}>
              by {r.undone.by?.name ?? 'System/Deleted User'}, {formatDateTime(r.undone.at)}
            </Text>
          ) : null}
        </span>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      render: (r) =>
        r.status === 'committed' ? (
          <Button size="small" onClick={() => setUndoing(r)} aria-label={`Undo import ${r.file_name}`}>
            Undo import
          </Button>
        ) : null,
    },
  ];

  return (
    <Panel title="Past imports" className={styles.form} role="region" aria-label="Past imports">
      <ErrorAlert text={undoError} />
      <ErrorAlert
        text={list.isError ? errorText(list.error, 'The past imports could not be loaded.') : null}
      />
      <DataTable
        label="Past imports"
        columns={columns}
        rows={list.data?.data ?? []}
        rowKey={(r) => r.id}
        loading={list.isPending}
        emptyText="No files uploaded yet."
        cards
        paging={{
          page,
          pageSize,
          totalItems: list.data?.totalItems ?? 0,
          pageSizes: [10, 25, 50],
          onPage: setPage,
          onPageSize: (size) => {
            setPageSize(size);
            setPage(1);
          },
        }}
      />
      <ConfirmDialog
        open={undoing !== null}
        title="Undo import?"
        message={
          undoing
            ? `Every record imported from ${undoing.file_name} (${count(undoing.rows_total, undoing.kind)}) will be reversed, all at once or not at all. Bahi refuses if any of them has been changed or used since the import.`
            : ''
        }
        confirmLabel="Undo import"
        busy={undo.isPending}
        onCancel={() => setUndoing(null)}
        onConfirm={() => void confirm()}
      />
    </Panel>
  );
}

function PreviewPanel(props: {
  preview: ImportPreview;
  committing: boolean;
  progress: ImportProgress | undefined;
  commitError: string | null;
  onCommit(): void;
}) {
  const { preview: p } = props;
  const styles = useStyles();
  const [onlyWrong, setOnlyWrong] = useState(false);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const balances = useMemo(
    () => new Map(p.effect?.opening_balances.map((b) => [b.row, b]) ?? []),
    [p.effect],
  );
  const rows = onlyWrong ? p.rows.filter((r) => r.outcome === 'error') : p.rows;
  const shown = rows.slice((page - 1) * pageSize, page * pageSize);
  const canCommit = p.status === 'valid' && !props.committing;

  const columns: Column<ImportRow>[] = [
    {
      key: 'row',
      header: 'Row',
      width: '70px',
      card: 'title',
      render: (r) => (
        <span>
          <Text weight="semibold">Row {r.row} </Text>
          <Badge appearance="tint" color={r.outcome === 'ok' ? 'success' : 'danger'}>
            {r.outcome === 'ok' ? 'Ready' : 'Wrong'}
          </Badge>
        </span>
      ),
    },
    ...p.columns.map(
      (c): Column<ImportRow> => ({
        key: c.field,
        header: `${c.letter} · ${c.header}`,
        render: (r) => {
          const errors = r.errors.filter((e) => e.column === c.letter);
          const value = r.values[c.header] ?? '';
          if (errors.length === 0) return <span className={styles.value}>{value}</span>;
          return (
            <span className={styles.wrongCell} data-cell={`${c.letter}${r.row}`}>
              <span className={styles.value}>{value || '(empty)'}</span>
              {errors.map((e) => (
                <span key={e.msg} className={styles.wrong} role="note">
                  {e.msg.startsWith(`Cell ${e.cell}`) ? e.msg : `${e.cell}: ${e.msg}`}
                </span>
              ))}
            </span>
          );
        },
      }),
    ),
    {
      key: 'outcome',
      header: p.effect?.opening_balances.length ? 'Opening balance' : 'Outcome',
      render: (r) => {
        const rowErrors = r.errors.filter((e) => !e.column);
        const b = balances.get(r.row);
        return (
          <span>
            {b ? (
              <Text>
                {formatAmount(b.before)} → <Text weight="semibold">{formatAmount(b.after)}</Text>{' '}
                {b.currency ?? ''}
              </Text>
            ) : r.outcome === 'ok' ? (
              <Text className={styles.muted}>Ready</Text>
            ) : null}
            {rowErrors.map((e) => (
              <span key={e.msg} className={styles.wrong} role="note">
                {e.msg}
              </span>
            ))}
          </span>
        );
      },
    },
  ];

  return (
    <Panel title={`3. Preview: ${p.file_name}`} className={styles.form} role="region" aria-label="Preview">
      <div className={styles.summary} aria-live="polite">
        <Badge
          appearance="filled"
          color={p.status === 'invalid' ? 'danger' : p.status === 'undone' ? 'warning' : 'success'}
        >
          {
            { invalid: 'Not ready', valid: 'Ready to commit', committed: 'Committed', undone: 'Undone' }[
              p.status
            ]
          }
        </Badge>
        <Text>
          {formatCount(p.rows_total)} rows: {formatCount(p.rows_valid)} ready, {formatCount(p.rows_invalid)}{' '}
          wrong
        </Text>
        <Text className={styles.muted}>
          Uploaded {formatDateTime(p.created_at)} by {p.uploaded_by?.name ?? 'System/Deleted User'}
        </Text>
      </div>
      {p.file_errors.length ? (
        <div role="alert">
          <Text weight="semibold">The file cannot be imported as it is:</Text>
          <ul className={styles.list}>
            {p.file_errors.map((e) => (
              <li key={e.msg}>
                <Text>{e.cell ? `${e.cell}: ${e.msg}` : e.msg}</Text>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {p.effect && TRANSACTIONS.has(p.kind) ? (
        <BooksEffect effect={p.effect} fileName={p.file_name} records={(n) => count(n, p.kind)} />
      ) : p.effect?.totals.length ? (
        <section className={styles.totals} aria-label="Effect on the books">
          <Text weight="semibold">Opening balances this import sets</Text>
          {p.effect.totals.map((t) => (
            <Text key={t.currency}>
              {t.currency}: {count(t.records, p.kind)}, {formatAmount(t.opening_balance)} in all
            </Text>
          ))}
        </section>
      ) : p.effect ? (
        <Text>Commit records {count(p.effect.records, p.kind)}.</Text>
      ) : null}
      {p.rows.length ? (
        <>
          <Switch
            label="Only wrong rows"
            checked={onlyWrong}
            onChange={(_, d) => {
              setOnlyWrong(d.checked);
              setPage(1);
            }}
          />
          <DataTable
            label={`Rows of ${p.file_name}`}
            columns={columns}
            rows={shown}
            rowKey={(r) => String(r.row)}
            emptyText="No rows."
            cards
            paging={{
              page,
              pageSize,
              totalItems: rows.length,
              pageSizes: PAGE_SIZES,
              onPage: setPage,
              onPageSize: (s) => {
                setPageSize(s);
                setPage(1);
              },
            }}
          />
        </>
      ) : null}
      <ErrorAlert text={props.commitError} />
      {props.committing ? <CommitProgress preview={p} progress={props.progress} /> : null}
      {p.undone ? (
        <div role="status">
          <Text weight="semibold">
            Undone by {p.undone.by?.name ?? 'System/Deleted User'} on {formatDateTime(p.undone.at)}: every
            record imported from {p.file_name} was reversed.
          </Text>
        </div>
      ) : p.committed ? (
        <div role="status">
          <Text weight="semibold">
            Imported {count(p.rows_total, p.kind)} from {p.file_name} by{' '}
            {p.committed.by?.name ?? 'System/Deleted User'} on {formatDateTime(p.committed.at)}.
          </Text>{' '}
          <Link to={LISTS[p.kind]}>Open {KIND_LABELS[p.kind]}</Link>
        </div>
      ) : (
        <div className={styles.buttons}>
          <Button appearance="primary" disabled={!canCommit} onClick={props.onCommit}>
            {props.committing ? 'Committing…' : `Commit ${count(p.rows_valid, p.kind)}`}
          </Button>
          {p.status === 'invalid' ? (
            <Text className={styles.muted}>Fix the wrong rows in the file and upload it again.</Text>
          ) : null}
        </div>
      )}
    </Panel>
  );
}

/**
 * The commit's progress: records recorded of the total, polled from the command process running
 * it (GET /imports/{id}/progress); indeterminate while the file is checked again first.
 */
function CommitProgress(props: { preview: ImportPreview; progress: ImportProgress | undefined }) {
  const { preview: p } = props;
  // A poll answered by a command copy that is not running the commit says `idle`: the last figure stays.
  const last = useRef<ImportProgress | undefined>(undefined);
  if (props.progress?.state === 'recording') last.current = props.progress;
  const progress = last.current;
  const recording = progress?.state === 'recording' && progress.total > 0;
  const text = recording
    ? `Recorded ${formatCount(progress.done)} of ${count(progress.total, p.kind)}…`
    : `Checking ${count(p.rows_valid, p.kind)} again…`;
  return (
    <Field validationMessage={text} validationState="none">
      <ProgressBar
        aria-label="Committing"
        aria-valuetext={text}
        value={recording ? progress.done / progress.total : undefined}
        max={1}
      />
    </Field>
  );
}

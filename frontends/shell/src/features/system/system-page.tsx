import {
  type Column,
  ConfirmDialog,
  DataTable,
  ErrorAlert,
  errorText,
  formatCount,
  formatDateTime,
  formatExact,
  lazyNamed,
  Page,
  Panel,
  useSnackbar,
} from '@bahi/ui';
import { ScreenProviders, useMutation, useQuery, useQueryClient } from '@bahi/ui/screen';
import {
  Badge,
  Button,
  Checkbox,
  Field,
  makeStyles,
  ProgressBar,
  Radio,
  RadioGroup,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Suspense, useState } from 'react';
import { allUsersQuery, nameOf } from '../../shared/users.ts';
import {
  inProgress,
  type ProjectionComparison,
  type ProjectionState,
  projectionsQuery,
  type Quarantined,
  type Rebuild,
  requestRebuild,
  resumeProjection,
} from './api.ts';
import { BackupsPanel } from './backups-panel.tsx';
import { VerifyPanel } from './verify-panel.tsx';

const QuarantineDialog = lazyNamed(() => import('./quarantine-dialog.tsx'), 'QuarantineDialog');

const useStyles = makeStyles({
  controls: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'flex-end',
    gap: tokens.spacingHorizontalL,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  error: { color: tokens.colorPaletteRedForeground1, overflowWrap: 'anywhere' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  report: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  scroll: { overflowX: 'auto', maxWidth: '100%' },
  small: {
    borderCollapse: 'collapse',
    fontSize: tokens.fontSizeBase200,
    '& th, & td': {
      textAlign: 'left',
      padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
      borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
      whiteSpace: 'nowrap',
    },
  },
  num: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  // A badge is one line high: its text must not wrap in a narrow column (390 px).
  badge: { whiteSpace: 'nowrap', flexShrink: 0 },
});

const MODES = { swap: 'Rebuild and swap', compare: 'Compare only' } as const;
type Mode = keyof typeof MODES;

const STATUS = {
  running: { label: 'Running', color: 'success' },
  failed: { label: 'Stopped', color: 'danger' },
  paused: { label: 'Paused', color: 'warning' },
} as const;
const REBUILD_STATUS = {
  requested: { label: 'Asked for', color: 'informative' },
  running: { label: 'Running', color: 'informative' },
  done: { label: 'Done', color: 'success' },
  failed: { label: 'Failed', color: 'danger' },
} as const;

/** System (issue #18; Admin only): the read models, their rebuilds and stopped projections. */
export function SystemPage() {
  return (
    <ScreenProviders>
      <SystemScreen />
    </ScreenProviders>
  );
}

/** The screen itself, inside whichever query cache is around it (tests give it a fresh one). */
export function SystemScreen() {
  const styles = useStyles();
  const notify = useSnackbar();
  const client = useQueryClient();
  const status = useQuery(projectionsQuery());
  const users = useQuery(allUsersQuery());
  const [selected, setSelected] = useState<string[]>([]);
  const [mode, setMode] = useState<Mode>('swap');
  const [quarantining, setQuarantining] = useState<ProjectionState | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  /** A swap asked for and not yet confirmed: the projections it rebuilds (none: all). */
  const [confirmSwap, setConfirmSwap] = useState<string[] | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['settings', 'projections'] });

  const rebuild = useMutation({
    mutationFn: requestRebuild,
    onSuccess: (answer) => {
      notify(answer.message);
      setActionError(null);
      return refresh();
    },
    onError: (error) => setActionError(errorText(error, 'Failed to start the rebuild.')),
  });
  const resume = useMutation({
    mutationFn: resumeProjection,
    onSuccess: (answer) => {
      notify(answer.message);
      setActionError(null);
      return refresh();
    },
    onError: (error) => setActionError(errorText(error, 'Failed to resume the projection.')),
  });

  const data = status.isError ? undefined : status.data;
  const projections = data?.projections ?? [];
  const latest = data?.rebuilds[0];
  const running = inProgress(latest);
  const start = (names: string[], swap: boolean) =>
    rebuild.mutate(names.length ? { projections: names, swap } : { swap });
  // A swap replaces the live read models: it is confirmed first. A compare changes nothing.
  const ask = (names: string[], swap: boolean) => (swap ? setConfirmSwap(names) : start(names, false));
  const toggle = (name: string, on: boolean) =>
    setSelected((s) => (on ? [...s.filter((n) => n !== name), name] : s.filter((n) => n !== name)));
  const allChecked = projections.length > 0 && projections.every((p) => selected.includes(p.name));
  const someChecked = selected.length > 0 && !allChecked;

  const columns: Column<ProjectionState>[] = [
    {
      key: 'pick',
      header: (
        <Checkbox
          aria-label="Select all projections"
          checked={allChecked ? true : someChecked ? 'mixed' : false}
          onChange={(_, d) => setSelected(d.checked === true ? projections.map((p) => p.name) : [])}
        />
      ),
      width: '48px',
      card: 'title',
      render: (p) => (
        <Checkbox
          aria-label={`Select ${p.name}`}
          checked={selected.includes(p.name)}
          onChange={(_, d) => toggle(p.name, d.checked === true)}
        />
      ),
    },
    {
      key: 'name',
      header: 'Projection',
      card: 'title',
      render: (p) => <Text weight="semibold">{p.name}</Text>,
    },
    // On a phone (cards) status, lag and position are a labelled row under the name.
    {
      key: 'status',
      header: 'Status',
      card: 'figure',
      render: (p) => (
        <Badge className={styles.badge} appearance="tint" color={STATUS[p.status]?.color ?? 'subtle'}>
          {STATUS[p.status]?.label ?? p.status}
        </Badge>
      ),
    },
    {
      key: 'lag',
      header: 'Lag',
      card: 'figure',
      render: (p) => `${formatCount(p.lag)} ${p.lag === '1' ? 'event' : 'events'}`,
    },
    { key: 'position', header: 'Position', card: 'figure', render: (p) => formatCount(p.position) },
    {
      key: 'error',
      header: 'Error',
      render: (p) =>
        p.error ? (
          <div>
            <Text className={styles.error} size={200} block>
              {p.error}
            </Text>
            {p.failingEvent ? (
              <Text className={styles.muted} size={200}>
                {p.failingEvent.type} at position {formatCount(p.failingEvent.position)} in{' '}
                {p.failingEvent.streamId}
              </Text>
            ) : null}
          </div>
        ) : null, // no error: an empty cell, and no 'Error: None' line on a phone's card
    },
    {
      key: 'actions',
      header: 'Actions',
      card: 'action',
      render: (p) =>
        p.status === 'failed' ? (
          <div className={styles.actions}>
            <Button
              size="small"
              disabled={resume.isPending}
              onClick={() => resume.mutate(p.name)}
              aria-label={`Resume ${p.name}`}
            >
              Resume
            </Button>
            {p.failingEvent ? (
              <Button
                size="small"
                onClick={() => setQuarantining(p)}
                aria-label={`Failing event of ${p.name}`}
              >
                Failing event
              </Button>
            ) : null}
          </div>
        ) : null,
    },
  ];

  const rebuildLabel = selected.length
    ? `${MODES[mode]}: ${selected.length} selected`
    : `${MODES[mode]}: all`;

  return (
    <Page title="System">
      <Text>
        Each read model's position in the event log, how far it is behind, and whether it is running. A
        rebuild replays the log into a copy, compares it table by table with the live read model and, unless
        asked only to compare, swaps the copy in.
      </Text>
      <ErrorAlert
        text={status.isError ? errorText(status.error, 'Failed to fetch the projections.') : actionError}
      />
      <Panel title="Projections" role="region" aria-label="Projections">
        {data ? (
          <Text size={200} className={styles.muted}>
            Head of the log: position {formatCount(data.head)}
          </Text>
        ) : null}
        <div className={styles.controls}>
          <Field label="Rebuild mode">
            <RadioGroup layout="horizontal" value={mode} onChange={(_, d) => setMode(d.value as Mode)}>
              <Radio value="swap" label={MODES.swap} />
              <Radio value="compare" label={MODES.compare} />
            </RadioGroup>
          </Field>
          <Button
            appearance="primary"
            disabled={running || rebuild.isPending || !data}
            onClick={() => ask(selected, mode === 'swap')}
          >
            {rebuildLabel}
          </Button>
        </div>
        <DataTable
          label="Projections"
          columns={columns}
          rows={projections}
          rowKey={(p) => p.name}
          loading={status.isPending}
          emptyText="No projections."
          cards
        />
      </Panel>
      {latest ? (
        <RebuildPanel
          rebuild={latest}
          by={nameOf(users.data, latest.requestedBy)}
          busy={running || rebuild.isPending}
          onSwap={() => ask(latest.projections, true)}
        />
      ) : null}
      <ConfirmDialog
        open={confirmSwap !== null}
        title="Rebuild and swap?"
        message={
          <>
            {confirmSwap?.length ? confirmSwap.join(', ') : 'Every projection'} will be rebuilt from the event
            log and the copy swapped in: it replaces the live read models that every screen and report reads.
          </>
        }
        confirmLabel="Rebuild and swap"
        onCancel={() => setConfirmSwap(null)}
        onConfirm={() => {
          if (confirmSwap) start(confirmSwap, true);
          setConfirmSwap(null);
        }}
      />
      {data && data.rebuilds.length > 1 ? <EarlierRebuilds rebuilds={data.rebuilds.slice(1)} /> : null}
      {data?.quarantined.length ? <QuarantinedPanel entries={data.quarantined} users={users.data} /> : null}
      <VerifyPanel />
      <BackupsPanel />
      {quarantining?.failingEvent ? (
        <Suspense fallback={null}>
          <QuarantineDialog
            projection={quarantining.name}
            position={quarantining.failingEvent.position}
            onClose={() => setQuarantining(null)}
          />
        </Suspense>
      ) : null}
    </Page>
  );
}

/** How far a running rebuild's replay is: its position against the head it replays to. */
function progressOf(r: Rebuild): number | undefined {
  const target = Number(r.target);
  if (!(target > 0)) return undefined;
  return Math.min(1, Number(r.position) / target);
}

function RebuildPanel(props: { rebuild: Rebuild; by: string; busy: boolean; onSwap(): void }) {
  const styles = useStyles();
  const r = props.rebuild;
  const s = REBUILD_STATUS[r.status];
  const progress = progressOf(r);
  const report = r.report;
  const what = r.projections.length ? r.projections.join(', ') : 'all projections';
  return (
    <Panel title="Latest rebuild" role="region" aria-label="Latest rebuild">
      <div className={styles.actions}>
        <Badge className={styles.badge} appearance="filled" color={s.color}>
          {s.label}
        </Badge>
        <Text>
          {r.swap ? MODES.swap : MODES.compare} of {what}, asked for by {props.by} on{' '}
          {formatDateTime(r.requestedAt)}
        </Text>
      </div>
      {inProgress(r) ? (
        <Field
          label="Progress"
          hint={
            progress === undefined
              ? 'Waiting for the projector to start it…'
              : `Replayed to position ${formatCount(r.position)} of ${formatCount(r.target)} (${Math.floor(progress * 100)}%)`
          }
        >
          <ProgressBar value={progress} aria-label="Rebuild progress" />
        </Field>
      ) : null}
      {r.status === 'failed' ? (
        <ErrorAlert title="The rebuild failed" text={r.error ?? 'No reason recorded.'} />
      ) : null}
      {report ? (
        <section className={styles.report} aria-label="Comparison report">
          <Text weight="semibold">
            {report.identical
              ? 'Identical: every table of the rebuilt projections matches the live read models.'
              : report.swap
                ? 'Differences found, and repaired: the live read models differed from the rebuilt ones below.'
                : 'Differences found between the live read models and the rebuilt ones.'}
          </Text>
          <Text size={200} className={styles.muted}>
            {formatCount(report.events)} events replayed, {formatDateTime(report.startedAt)} to{' '}
            {formatDateTime(report.finishedAt)}.{' '}
            {report.swap
              ? 'The rebuilt tables were swapped in: the live read models are now the rebuilt ones.'
              : 'Compared only: the live read models were left as they were.'}
          </Text>
          {report.comparisons
            .filter((c) => !c.identical)
            .map((c) => (
              <Differences key={c.projection} comparison={c} />
            ))}
          {!report.swap && !report.identical ? (
            <div>
              <Button appearance="primary" disabled={props.busy} onClick={props.onSwap}>
                Rebuild and swap
              </Button>
              <Text size={200} block className={styles.muted}>
                Rebuilds {what} again from the log and swaps the copy in (a compare-only rebuild keeps no copy
                to swap later).
              </Text>
            </div>
          ) : null}
        </section>
      ) : null}
    </Panel>
  );
}

function Differences({ comparison: c }: { comparison: ProjectionComparison }) {
  const styles = useStyles();
  const tables = c.tables.filter((t) => !t.identical);
  return (
    <section aria-label={`Differences in ${c.projection}`}>
      <Text weight="semibold" block>
        {c.projection}
        {c.livePosition !== c.shadowPosition
          ? ` (compared at live position ${formatCount(c.livePosition)}, rebuilt ${formatCount(c.shadowPosition)})`
          : ''}
      </Text>
      {tables.length ? (
        <div className={styles.scroll}>
          <table className={styles.small} aria-label={`Differing tables of ${c.projection}`}>
            <thead>
              <tr>
                <th>Table</th>
                <th className={styles.num}>Live rows</th>
                <th className={styles.num}>Rebuilt rows</th>
              </tr>
            </thead>
            <tbody>
              {tables.map((t) => (
                <tr key={t.table}>
                  <td>{t.table}</td>
                  <td className={styles.num}>{formatCount(t.liveRows)}</td>
                  <td className={styles.num}>{formatCount(t.shadowRows)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {c.balanceDifferences.length ? (
        <div className={styles.scroll}>
          <table className={styles.small} aria-label={`Differing accounts of ${c.projection}`}>
            <thead>
              <tr>
                <th>Account</th>
                <th>Currency</th>
                <th className={styles.num}>Live amount</th>
                <th className={styles.num}>Rebuilt amount</th>
                <th className={styles.num}>Live quantity</th>
                <th className={styles.num}>Rebuilt quantity</th>
              </tr>
            </thead>
            <tbody>
              {c.balanceDifferences.map((d) => (
                <tr key={`${d.account}|${d.currency}`}>
                  <td>{d.account}</td>
                  <td>{d.currency}</td>
                  <td className={styles.num}>{formatExact(d.liveAmount)}</td>
                  <td className={styles.num}>{formatExact(d.shadowAmount)}</td>
                  <td className={styles.num}>{formatExact(d.liveQuantity)}</td>
                  <td className={styles.num}>{formatExact(d.shadowQuantity)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function EarlierRebuilds({ rebuilds }: { rebuilds: Rebuild[] }) {
  const columns: Column<Rebuild>[] = [
    { key: 'when', header: 'Asked for', render: (r) => formatDateTime(r.requestedAt) },
    {
      key: 'what',
      header: 'Projections',
      render: (r) => (r.projections.length ? r.projections.join(', ') : 'All'),
    },
    { key: 'mode', header: 'Mode', render: (r) => (r.swap ? MODES.swap : MODES.compare) },
    { key: 'status', header: 'Status', render: (r) => REBUILD_STATUS[r.status].label },
    {
      key: 'result',
      header: 'Result',
      render: (r) =>
        r.report
          ? r.report.identical
            ? 'Identical'
            : r.swap
              ? 'Differences, repaired by the swap'
              : 'Differences'
          : (r.error ?? ''),
    },
  ];
  return (
    <Panel title="Earlier rebuilds" role="region" aria-label="Earlier rebuilds">
      <DataTable
        cards
        label="Earlier rebuilds"
        columns={columns}
        rows={rebuilds}
        rowKey={(r) => r.id}
        emptyText="None."
      />
    </Panel>
  );
}

function QuarantinedPanel(props: { entries: Quarantined[]; users: Parameters<typeof nameOf>[0] }) {
  const columns: Column<Quarantined>[] = [
    { key: 'projection', header: 'Projection', render: (q) => q.projection },
    { key: 'event', header: 'Event', render: (q) => `${q.event_type} at ${formatCount(q.position)}` },
    { key: 'reason', header: 'Reason', render: (q) => q.reason },
    {
      key: 'who',
      header: 'Set aside',
      render: (q) => `${nameOf(props.users, q.quarantinedBy)}, ${formatDateTime(q.quarantinedAt)}`,
    },
  ];
  return (
    <Panel title="Quarantined events" role="region" aria-label="Quarantined events">
      <DataTable
        cards
        label="Quarantined events"
        columns={columns}
        rows={props.entries}
        rowKey={(q) => `${q.projection}|${q.position}`}
        emptyText="No quarantined events."
      />
    </Panel>
  );
}

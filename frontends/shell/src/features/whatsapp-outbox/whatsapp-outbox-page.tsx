import {
  type Column,
  ConfirmDialog,
  DataTable,
  download,
  ErrorAlert,
  errorText,
  formatDateTime,
  Page,
  saveFile,
  useSnackbar,
} from '@bahi/ui';
import { ScreenProviders, useMutation, useQuery, useQueryClient } from '@bahi/ui/screen';
import { Badge, Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, CheckmarkRegular, SendRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { allUsersQuery, nameOf } from '../../shared/users.ts';
import { markSent, type OutboxEntry, outboxQuery, sendNow } from './api.ts';

const useStyles = makeStyles({
  muted: { color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
  error: { color: tokens.colorPaletteRedForeground1, overflowWrap: 'anywhere' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  // A badge (and a small button) is one line high: its text must not wrap in a narrow column (390 px).
  badge: { whiteSpace: 'nowrap', flexShrink: 0 },
});

const STATUS = {
  outbox: { label: 'In outbox', color: 'warning' },
  accepted: { label: 'Sent', color: 'success' },
  sent: { label: 'Sent by hand', color: 'success' },
  failed: { label: 'Failed', color: 'danger' },
} as const;

/** The report names as the reports' own screens call them. */
const REPORT_TITLES: Record<string, string> = {
  stock: 'Stock',
  'daywise-report': 'Day-wise Report',
  balances: 'Balances',
  'cashbook-report': 'Cashbook Report',
  payments: 'Payments',
  'salary-report': 'Salary Report',
  ledger: 'Ledger',
};

/**
 * WhatsApp outbox (issue #18; Admin only): every report sent or put aside for WhatsApp, newest
 * first, with its file. With the default transport (`outbox`) nothing leaves the building: an
 * Admin opens the file here and sends it by hand.
 */
export function WhatsAppOutboxPage() {
  return (
    <ScreenProviders>
      <WhatsAppOutbox />
    </ScreenProviders>
  );
}

/** The screen itself, inside whichever query cache is around it (tests give it a fresh one). */
export function WhatsAppOutbox() {
  const styles = useStyles();
  const query = useQuery(outboxQuery());
  const users = useQuery(allUsersQuery());
  const [opening, setOpening] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const notify = useSnackbar();
  const client = useQueryClient();
  const [marking, setMarking] = useState<OutboxEntry | null>(null);
  const mark = useMutation({
    mutationFn: (entry: OutboxEntry) => markSent(entry.job_id),
    onSuccess: (answer) => {
      notify(answer.message);
      return client.invalidateQueries({ queryKey: ['settings', 'whatsapp-outbox'] });
    },
    onError: (error) => setActionError(errorText(error, 'Failed to mark the report as sent.')),
    onSettled: () => setMarking(null),
  });
  // Send now: the server sends it with its WhatsApp transport; the row shows what became of it.
  const send = useMutation({
    mutationFn: (entry: OutboxEntry) => sendNow(entry.job_id),
    onMutate: () => setActionError(null),
    onSuccess: (answer) => {
      notify(
        answer.message,
        answer.status === 'accepted' ? 'success' : answer.status === 'outbox' ? 'warning' : 'info',
      );
      return client.invalidateQueries({ queryKey: ['settings', 'whatsapp-outbox'] });
    },
    onError: (error) => {
      setActionError(errorText(error, 'Failed to send the report via WhatsApp.'));
      // A failed send is recorded: its row shows why.
      return client.invalidateQueries({ queryKey: ['settings', 'whatsapp-outbox'] });
    },
  });

  const open = async (entry: OutboxEntry) => {
    setOpening(entry.job_id);
    setActionError(null);
    try {
      const answer = await download(entry.link);
      if (answer.blob) saveFile(answer.blob, answer.fileName ?? entry.file_name);
      else setActionError('The file is not available.');
    } catch (error) {
      setActionError(errorText(error, 'Failed to open the file.'));
    } finally {
      setOpening(null);
    }
  };

  const columns: Column<OutboxEntry>[] = [
    {
      key: 'recipient',
      header: 'Recipient',
      render: (e) => <Text weight="semibold">{e.recipient}</Text>,
    },
    {
      key: 'status',
      header: 'Status',
      render: (e) => (
        <div>
          <Badge className={styles.badge} appearance="tint" color={STATUS[e.status]?.color ?? 'subtle'}>
            {STATUS[e.status]?.label ?? e.status}
          </Badge>
          {e.status === 'sent' ? (
            <Text size={200} block className={styles.muted}>
              by {nameOf(users.data, e.recorded_by, 'Unknown user')}
            </Text>
          ) : null}
          {e.error ? (
            <Text size={200} block className={styles.error}>
              {e.error}
            </Text>
          ) : null}
        </div>
      ),
    },
    {
      key: 'file',
      header: 'Actions',
      card: 'action',
      render: (e) => (
        <div className={styles.actions}>
          <Button
            className={styles.badge}
            size="small"
            icon={<ArrowDownloadRegular />}
            disabled={opening === e.job_id}
            onClick={() => void open(e)}
            aria-label={`Open file ${e.file_name}`}
          >
            Open file
          </Button>
          {e.status === 'outbox' || e.status === 'failed' ? (
            <Button
              className={styles.badge}
              size="small"
              icon={<SendRegular />}
              disabled={send.isPending}
              onClick={() => send.mutate(e)}
              aria-label={`Send now to ${e.recipient}`}
            >
              {send.isPending && send.variables?.job_id === e.job_id ? 'Sending…' : 'Send now'}
            </Button>
          ) : null}
          {e.status === 'outbox' || e.status === 'failed' ? (
            <Button
              className={styles.badge}
              size="small"
              icon={<CheckmarkRegular />}
              onClick={() => setMarking(e)}
              aria-label={`Mark sent to ${e.recipient}`}
            >
              Mark sent
            </Button>
          ) : null}
        </div>
      ),
    },
    {
      key: 'report',
      header: 'Report',
      render: (e) => (
        <div>
          <Text block>{REPORT_TITLES[e.report] ?? e.report}</Text>
          <Text size={200} className={styles.muted}>
            {e.file_name}
          </Text>
        </div>
      ),
    },
    { key: 'when', header: 'When', render: (e) => formatDateTime(e.recorded_at) },
    { key: 'who', header: 'Who', render: (e) => nameOf(users.data, e.requested_by, 'Unknown user') },
  ];

  return (
    <Page title="WhatsApp outbox">
      <Text>
        Reports sent with WhatsApp, newest first. Those in the outbox were not sent by the server (no WhatsApp
        transport is configured): open the file, send it to the recipient, then mark it sent. Send now tries
        again with the server's WhatsApp settings.
      </Text>
      <ErrorAlert
        text={query.isError ? errorText(query.error, 'Failed to fetch the WhatsApp outbox.') : actionError}
      />
      <DataTable
        cards
        label="WhatsApp outbox"
        columns={columns}
        rows={query.isError ? [] : (query.data?.data ?? [])}
        rowKey={(e) => e.job_id}
        loading={query.isPending}
        emptyText="The outbox is empty."
      />
      <ConfirmDialog
        open={!!marking}
        title="Mark as sent?"
        message={`Did you send ${marking?.file_name ?? 'the file'} to ${marking?.recipient ?? ''} yourself? It is recorded as sent by you.`}
        confirmLabel="Mark sent"
        busy={mark.isPending}
        onCancel={() => setMarking(null)}
        onConfirm={() => marking && mark.mutate(marking)}
      />
    </Page>
  );
}

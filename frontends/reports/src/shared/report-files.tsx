import {
  API_BASE,
  ApiError,
  api,
  download,
  ErrorAlert,
  errorText,
  FormDialog,
  lazyNamed,
  type Query,
  saveFile,
  useSnackbar,
} from '@bahi/ui';
import { useMutation } from '@bahi/ui/screen';
import { Button, Field, Input, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import {
  ArrowDownloadRegular,
  DismissRegular,
  DocumentPdfRegular,
  DocumentTableRegular,
  SendRegular,
} from '@fluentui/react-icons';
import { type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from 'react';

/** The report files the server renders (docs/reports.md): PDF or Excel. */
export type ReportFormat = 'pdf' | 'xlsx';
export const FORMAT_LABEL: Record<ReportFormat, string> = { pdf: 'PDF', xlsx: 'Excel' };

/** The reports the server can render and send (`reportName` of POST /reports/whatsapp). */
export type ReportName =
  | 'stock'
  | 'ledger'
  | 'daywise-report'
  | 'balances'
  | 'cashbook-report'
  | 'payments'
  | 'salary-report';

/** Spec section 7. */
export const DOWNLOAD_STARTED = 'Download started successfully!';
export const downloadFailed = (format: ReportFormat) => `Failed to download ${format} report.`;
export const WHATSAPP_FAILED = 'Failed to send report via WhatsApp.';
/** The live stream's notification, re-broadcast by the shell (frontends/shell/src/shared/live-events.tsx). */
export const NOTIFICATION_EVENT = 'bahi:notification';
/** The worker's notice for a file that was still rendering when its download stopped waiting. */
export const REPORT_READY_TITLE = 'Report ready';
/** How often a file still rendering is asked for, and for how long (the notification is the first way). */
export const POLL_MS = 5000;
export const POLL_LIMIT = 120;

/** The non-empty values, as the download URL carries them (empty filters are left out, spec section 7). */
export function filtersOf(params: Query | undefined): Query {
  const out: Query = {};
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = value;
  }
  return out;
}

const samePath = (a: string, b: string) => {
  const strip = (s: string) => (s.startsWith(`${API_BASE}/`) ? s.slice(API_BASE.length) : s);
  return strip(a) === strip(b);
};

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  buttons: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  pending: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    maxWidth: '560px',
  },
  grow: { flex: '1 1 200px', minWidth: 0 },
});

interface Pending {
  jobId: string;
  link: string;
  format: ReportFormat;
  message: string;
}

export interface DownloadButtonsProps {
  /** The report's download path without the format: '/reports/stock/download'. */
  path: string;
  /** The report's filters, sent as the query string as they are (time travel's asOf, knownAt too). */
  params?: Query;
  /** The file's name without extension when the server sends none ('stock_report'). */
  fileName?: string;
  /** One 'Download' menu with PDF and Excel in it (the day-wise report's download control). */
  compact?: boolean;
  disabled?: boolean;
  /** Beside the buttons (the WhatsApp button). */
  children?: ReactNode;
}

// The menu (Fluent's Menu and its popover) loads with the first compact control on screen.
const DownloadMenu = lazyNamed(() => import('./download-menu.tsx'), 'DownloadMenu');

/**
 * PDF and Excel of a report, with its filters (spec sections 2 and 7): the file is fetched with
 * the session's token and saved under the server's name; 'Download started successfully!', or
 * the error in place. A big file still rendering (202) is announced and offered here once the
 * 'Report ready' notification names it, or a poll of its link finds it.
 */
export function DownloadButtons(props: DownloadButtonsProps) {
  const styles = useStyles();
  const notify = useSnackbar();
  const [busy, setBusy] = useState<ReportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const start = async (format: ReportFormat) => {
    setBusy(format);
    setError(null);
    try {
      const got = await download(`${props.path}/${format}`, filtersOf(props.params));
      if (got.blob) {
        saveFile(got.blob, got.fileName ?? `${props.fileName ?? 'report'}.${format}`);
        notify(DOWNLOAD_STARTED);
        return;
      }
      const body = (got.body ?? {}) as { message?: unknown; jobId?: unknown; link?: unknown };
      if (got.status === 202 && typeof body.link === 'string' && typeof body.jobId === 'string') {
        const item: Pending = {
          jobId: body.jobId,
          link: body.link,
          format,
          message: typeof body.message === 'string' ? body.message : '',
        };
        setPending((list) => [...list.filter((p) => p.jobId !== item.jobId), item]);
        return;
      }
      setError(downloadFailed(format));
    } catch (e) {
      setError(errorText(e, downloadFailed(format)));
    } finally {
      setBusy(null);
    }
  };
  const dismiss = useCallback((jobId: string) => setPending((l) => l.filter((p) => p.jobId !== jobId)), []);
  const disabled = props.disabled || busy !== null;
  return (
    <div className={styles.root}>
      <div className={styles.buttons}>
        {props.compact ? (
          <Suspense
            fallback={
              <Button icon={<ArrowDownloadRegular />} disabled>
                Download
              </Button>
            }
          >
            <DownloadMenu disabled={disabled} busy={busy !== null} onChoose={(f) => void start(f)} />
          </Suspense>
        ) : (
          (['pdf', 'xlsx'] as const).map((format) => (
            <Button
              key={format}
              aria-label={`Download ${FORMAT_LABEL[format]}`}
              icon={
                busy === format ? (
                  <Spinner size="extra-tiny" />
                ) : format === 'pdf' ? (
                  <DocumentPdfRegular />
                ) : (
                  <DocumentTableRegular />
                )
              }
              disabled={disabled}
              onClick={() => void start(format)}
            >
              {FORMAT_LABEL[format]}
            </Button>
          ))
        )}
        {props.children}
      </div>
      <ErrorAlert text={error} />
      {pending.map((p) => (
        <PendingFile
          key={p.jobId}
          item={p}
          fallbackName={`${props.fileName ?? 'report'}.${p.format}`}
          onDone={dismiss}
        />
      ))}
    </div>
  );
}

/**
 * A file the server is still rendering: offered once ready. The live stream's 'Report ready'
 * notification for its link is the quick way; its link is also asked for every few seconds
 * (404 until the file is stored), in case the stream is closed.
 */
function PendingFile(props: { item: Pending; fallbackName: string; onDone(jobId: string): void }) {
  const styles = useStyles();
  const notify = useSnackbar();
  const { item, fallbackName } = props;
  const [file, setFile] = useState<{ blob: Blob; fileName: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [gaveUp, setGaveUp] = useState(false);
  const fallback = useRef(fallbackName);
  fallback.current = fallbackName;
  useEffect(() => {
    const controller = new AbortController();
    let done = false;
    let asking = false;
    let again = false;
    let polls = 0;
    const check = async (): Promise<void> => {
      if (done) return;
      // A notice while a poll is on its way: asked once more right after it.
      if (asking) {
        again = true;
        return;
      }
      asking = true;
      try {
        const got = await download(item.link, undefined, controller.signal);
        if (!done && got.blob) {
          done = true;
          setFile({ blob: got.blob, fileName: got.fileName ?? fallback.current });
        }
      } catch (e) {
        // 404: not stored yet; a network failure or a 5xx: asked again at the next tick.
        const transient = !(e instanceof ApiError) || e.status === 404 || e.status >= 500;
        if (!done && !controller.signal.aborted && !transient) {
          done = true;
          setError(errorText(e, downloadFailed(item.format)));
        }
      } finally {
        asking = false;
      }
      if (again && !done) {
        again = false;
        await check();
      }
    };
    const timer = setInterval(() => {
      polls += 1;
      if (polls > POLL_LIMIT) {
        clearInterval(timer);
        if (!done) setGaveUp(true);
        return;
      }
      void check();
    }, POLL_MS);
    const onNotice = (e: Event) => {
      const n = (e as CustomEvent<{ title?: unknown; link?: unknown } | undefined>).detail;
      if (n?.title === REPORT_READY_TITLE && typeof n.link === 'string' && samePath(n.link, item.link))
        void check();
    };
    window.addEventListener(NOTIFICATION_EVENT, onNotice);
    return () => {
      done = true;
      controller.abort();
      clearInterval(timer);
      window.removeEventListener(NOTIFICATION_EVENT, onNotice);
    };
  }, [item.link, item.format]);

  const label = FORMAT_LABEL[item.format];
  const close = (
    <Button
      appearance="subtle"
      size="small"
      icon={<DismissRegular />}
      aria-label="Dismiss"
      onClick={() => props.onDone(item.jobId)}
    />
  );
  if (error) return <ErrorAlert text={error} action={close} />;
  if (file) {
    return (
      <div className={styles.pending} role="status">
        <Text className={styles.grow}>The {label} report is ready.</Text>
        <Button
          appearance="primary"
          icon={<ArrowDownloadRegular />}
          onClick={() => {
            saveFile(file.blob, file.fileName);
            notify(DOWNLOAD_STARTED);
            props.onDone(item.jobId);
          }}
        >
          Download {file.fileName}
        </Button>
        {close}
      </div>
    );
  }
  return (
    <div className={styles.pending} role="status">
      {gaveUp ? null : <Spinner size="extra-tiny" />}
      <Text className={styles.grow}>
        {gaveUp
          ? `The ${label} report is taking long; it will be in your notifications when it is ready.`
          : item.message
            ? `${item.message} The ${label} file will be offered here when it is ready.`
            : `The ${label} report is still being prepared; it will be offered here when it is ready.`}
      </Text>
      {close}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// WhatsApp.

/** E.164 as the server takes it (services/reports-worker parseRecipient): spaces, dashes and brackets dropped. */
export function recipientOf(text: string): string | undefined {
  const compact = text.replace(/[\s\-()]/g, '');
  return /^\+[1-9]\d{7,14}$/.test(compact) ? compact : undefined;
}

export const NUMBER_HINT = 'With the country code, e.g. +919876543210';
export const NUMBER_INVALID = 'Enter the number with its country code, e.g. +919876543210.';

export interface WhatsAppDialogProps {
  open: boolean;
  onClose(): void;
  /** Which report the server reads and sends. */
  reportName: ReportName;
  /**
   * The report's filters as in its download URL (a ledger's also `type` and `id`), time
   * travel's asOf and knownAt too; sent as `data` unchanged (empty values left out).
   */
  data?: Query;
  /** 'Send via WhatsApp' unless told. */
  title?: string;
}

/**
 * Sends a report to a WhatsApp number (spec sections 5 and 7): the number is required (Send is
 * disabled while it is empty) and must carry its country code; the server's message on
 * success, its refusal (or 'Failed to send report via WhatsApp.') in the dialog.
 */
export function WhatsAppDialog(props: WhatsAppDialogProps) {
  const notify = useSnackbar();
  const [number, setNumber] = useState('');
  const [invalid, setInvalid] = useState(false);
  const send = useMutation({
    mutationFn: (recipientNumber: string) =>
      api.post<{ message?: string }>('/reports/whatsapp', {
        recipientNumber,
        reportName: props.reportName,
        data: filtersOf(props.data),
      }),
  });
  const { reset } = send;
  // Each opening starts without the last one's error (the number is kept: often sent again).
  useEffect(() => {
    if (props.open) {
      reset();
      setInvalid(false);
    }
  }, [props.open, reset]);
  const submit = () => {
    const recipient = recipientOf(number);
    if (!recipient) {
      setInvalid(true);
      return;
    }
    send.mutate(recipient, {
      onSuccess: (answer) => {
        notify(
          typeof answer?.message === 'string' && answer.message
            ? answer.message
            : 'Report sent via WhatsApp.',
        );
        props.onClose();
      },
    });
  };
  return (
    <FormDialog
      open={props.open}
      title={props.title ?? 'Send via WhatsApp'}
      submitLabel="Send"
      busy={send.isPending}
      error={send.isError ? errorText(send.error, WHATSAPP_FAILED) : null}
      submitDisabled={!number.trim()}
      onClose={props.onClose}
      onSubmit={submit}
    >
      <Field
        label="WhatsApp Number"
        required
        hint={NUMBER_HINT}
        validationMessage={invalid ? NUMBER_INVALID : undefined}
      >
        <Input
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="+919876543210"
          value={number}
          onChange={(_, d) => {
            setNumber(d.value);
            setInvalid(false);
          }}
        />
      </Field>
    </FormDialog>
  );
}

/** A 'WhatsApp' button that opens the dialog (the stock report, the ledger). */
export function WhatsAppButton(
  props: Omit<WhatsAppDialogProps, 'open' | 'onClose'> & { disabled?: boolean },
) {
  const [open, setOpen] = useState(false);
  const { disabled, ...dialog } = props;
  return (
    <>
      <Button icon={<SendRegular />} disabled={disabled} onClick={() => setOpen(true)}>
        WhatsApp
      </Button>
      <WhatsAppDialog {...dialog} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

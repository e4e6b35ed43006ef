import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DAY_SECONDS,
  type FileStore,
  type JobContext,
  PermanentJobError,
  type ReportJob,
  type StoredFile,
} from '@bahi/report-jobs';
import type { Effects } from './effects.ts';
import { toDocument } from './render/document.ts';
import { renderPdf } from './render/pdf.ts';
import { renderXlsx } from './render/xlsx.ts';
import { PermanentSendError, type WhatsAppTransport } from './whatsapp.ts';

export interface ProcessorDeps {
  files: FileStore;
  effects: Effects;
  transport: WhatsAppTransport;
  businessName: string;
  /** Where a job's warnings go (the service's logger). */
  warn?(message: string, fields: Record<string, unknown>): void;
  /** Test hook: pause after reading the job, so a test can kill the worker mid-job. */
  pauseMs?: number;
  onProgress?(stage: string): Promise<void>;
}

const CONTENT_TYPES = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;
/** Outbox files stay until an Admin has had time to act on them. */
const OUTBOX_TTL = 90 * DAY_SECONDS;
/** Why Send now left a send in the outbox: the server has no WhatsApp transport to send with. */
export const NO_TRANSPORT_REASON =
  'WhatsApp is not set up on this server (BAHI_WHATSAPP_TRANSPORT is outbox), so it was not sent: open the file and send it by hand.';

/** The send a WhatsApp job records: its own id, or the outbox send it sends again (Send now). */
const sendIdOf = (job: JobContext) => (job.data.kind === 'whatsapp' && job.data.resend?.sendId) || job.id;
/** A Send now job's records are its own events, by the Admin who asked (effects.ts). */
const attemptOf = (job: JobContext) =>
  job.data.kind === 'whatsapp' && job.data.resend
    ? { jobId: job.id, userId: job.data.requester.id }
    : undefined;

export async function renderFile(job: ReportJob, format: 'pdf' | 'xlsx', businessName: string) {
  const doc = toDocument(job.source);
  const meta = { businessName, generatedAt: job.readAt, position: job.position, chainHead: job.chainHead };
  let missing: string[] = [];
  const body =
    format === 'pdf'
      ? await renderPdf(doc, meta, { onMissing: (chars) => (missing = chars) })
      : await renderXlsx(doc, meta);
  return {
    doc,
    /** Characters no font has, printed as placeholder boxes (PDF only). */
    missing,
    file: {
      fileName: `${doc.fileName}.${format}`,
      contentType: CONTENT_TYPES[format],
      sha256: createHash('sha256').update(body).digest('hex'),
      ownerId: job.requester.id,
      position: job.position,
      createdAt: new Date().toISOString(),
      body,
    } satisfies StoredFile,
  };
}

/**
 * One job, the same code under BullMQ and the in-process queue. Idempotent: the file is
 * stored under the job id (a second run replaces it with the same bytes), notices and send
 * records have ids derived from the job id, and a WhatsApp message the API accepted is marked
 * so a retried job does not send it again.
 */
export async function processReportJob(job: JobContext, deps: ProcessorDeps): Promise<{ sha256: string }> {
  const data = job.data;
  const final = job.attemptsMade + 1 >= job.attempts;
  try {
    await deps.onProgress?.('rendering');
    if (deps.pauseMs) await sleep(deps.pauseMs);
    if (data.kind === 'render') {
      const { file, missing } = await renderFile(data, data.format, deps.businessName);
      warnMissing(job, deps, file.fileName, missing);
      await deps.files.put(job.id, file, DAY_SECONDS);
      // After the file is stored: a requester who stopped waiting hears it is ready.
      if (await deps.files.isDetached(job.id)) {
        await deps.effects.notify(
          {
            key: `ready:${job.id}`,
            audience: data.requester.role,
            type: 'success',
            title: 'Report ready',
            message: `${file.fileName} for ${data.requester.name} is ready to download.`,
            link: `/api/reports/files/${job.id}`,
          },
          data.requester.id,
        );
      }
      return { sha256: file.sha256 };
    }

    const { file, doc, missing } = await renderFile(data, 'pdf', deps.businessName);
    warnMissing(job, deps, file.fileName, missing);
    const sentMarker = `${job.id}-sent`;
    const already = await deps.files.get(sentMarker);
    const result = already
      ? (JSON.parse(already.body.toString()) as Awaited<ReturnType<WhatsAppTransport['send']>>)
      : await deps.transport.send({
          to: data.recipient,
          fileName: file.fileName,
          caption: `${doc.title} - ${deps.businessName}`,
          body: file.body,
          contentType: file.contentType,
        });
    if (!already) {
      await deps.files.put(sentMarker, { ...file, body: Buffer.from(JSON.stringify(result)) }, OUTBOX_TTL);
    }
    // Under the send's id: the outbox row's link opens the file that was (or was not) sent.
    await deps.files.put(sendIdOf(job), file, result.status === 'outbox' ? OUTBOX_TTL : DAY_SECONDS);
    await deps.effects.recordSend(
      {
        ...sendRecord(job, file),
        transport: result.transport,
        status: result.status,
        message_id: result.messageId,
        // Asked to send now and still in the outbox: the row says why.
        error: data.resend && result.status === 'outbox' ? NO_TRANSPORT_REASON : null,
      },
      attemptOf(job),
    );
    return { sha256: file.sha256 };
  } catch (error) {
    const permanent = error instanceof PermanentSendError || error instanceof PermanentJobError;
    if (final || permanent) await reportFailure(job, deps, error as Error);
    if (permanent) throw new PermanentJobError((error as Error).message);
    throw error;
  }
}

/** One warning per job, whatever the number of characters: staff see boxes, operators why. */
function warnMissing(job: JobContext, deps: ProcessorDeps, fileName: string, missing: string[]) {
  if (missing.length === 0) return;
  deps.warn?.('report printed characters no font has as placeholder boxes', {
    job: job.id,
    report: job.data.source.report,
    file: fileName,
    characters: missing.map(
      (ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} ${ch}`,
    ),
  });
}

function sendRecord(job: JobContext, file: StoredFile) {
  const data = job.data as Extract<ReportJob, { kind: 'whatsapp' }>;
  return {
    job_id: sendIdOf(job),
    report: data.source.report,
    params: data.source.params,
    recipient: data.recipient,
    file_name: file.fileName,
    sha256: file.sha256,
    bytes: file.body.length,
    read_position: data.position,
    read_at: data.readAt,
    requested_by: data.resend?.requestedBy ?? data.requester.id,
    error: null,
  };
}

async function reportFailure(job: JobContext, deps: ProcessorDeps, error: Error) {
  const data = job.data;
  if (data.kind === 'whatsapp') {
    await deps.effects.recordSend(
      {
        job_id: sendIdOf(job),
        report: data.source.report,
        params: data.source.params,
        recipient: data.recipient,
        transport: deps.transport.name,
        status: 'failed',
        message_id: null,
        error: error.message.slice(0, 500),
        file_name: '',
        sha256: '',
        bytes: 0,
        read_position: data.position,
        read_at: data.readAt,
        requested_by: data.resend?.requestedBy ?? data.requester.id,
      },
      attemptOf(job),
    );
    await deps.effects.notify(
      {
        key: `failed:${job.id}`,
        audience: data.requester.role,
        type: 'error',
        title: 'Failed to send report via WhatsApp.',
        message: `The ${reportTitle(data.source.report)} ${data.requester.name} asked to send to ${data.recipient} did not go: ${error.message}`,
        link: null,
      },
      data.requester.id,
    );
  } else if (await deps.files.isDetached(job.id)) {
    await deps.effects.notify(
      {
        key: `failed:${job.id}`,
        audience: data.requester.role,
        type: 'error',
        title: `Failed to download ${data.format} report.`,
        message: `The ${reportTitle(data.source.report)} (${data.format.toUpperCase()}) ${data.requester.name} asked for could not be made: ${error.message}`,
        link: null,
      },
      data.requester.id,
    );
  }
}

/** A report as people name it, in a notification's sentence. */
const REPORT_TITLES: Record<string, string> = {
  stock: 'stock report',
  ledger: 'ledger',
  'daywise-report': 'day-wise report',
  'cashbook-report': 'cashbook',
  balances: 'balances report',
  payments: 'payments report',
  'salary-report': 'salary payments report',
};
export const reportTitle = (report: string): string => REPORT_TITLES[report] ?? 'report';

import { createHash } from 'node:crypto';
import { isStorableText, isUuid, outboxSendNow, reportPending, whatsappOutbox } from '@bahi/contracts';
import {
  FORMATS,
  parseRecipient,
  REPORT_NAMES,
  type ReportFormat,
  type ReportName,
  type ReportSource,
  type Reports,
  type Requester,
  runJob,
  SENDS_STREAM,
  type SendRecord,
  type StoredFile,
  type WhatsAppJob,
} from '@bahi/report-jobs';
import { HttpError, type SignedInUser, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { namesOf } from './parties.repository.ts';
import { REPORT_READERS } from './report-readers.ts';

/**
 * Report files and WhatsApp sends (issue #5). A download reads the report through the reader
 * its screen's JSON route uses (report-readers.ts: the same filters, refused the same way, and
 * the same repository read), after the read models have reached the head of the log at the
 * moment of asking; that position is printed on the file and recorded. The rendering is a job
 * for the reports worker (BullMQ, or the in-process queue in standalone); this side waits for
 * it, bounded, and streams the file.
 */
export interface ReportFileDeps {
  /** Absent when the query process has no REDIS_URL: downloads then answer 503. */
  reports?: Reports | undefined;
  /** How long a download waits for its file before answering 202 (default 20 s). */
  reportWaitMs?: number | undefined;
}

const formatParam = z.enum(FORMATS, { error: 'Download format is pdf or xlsx.' });

/**
 * The string, number and boolean values of a query or a `data` object, as text. A key or value
 * with a NUL or half a surrogate pair is a 400 on it: no report filter has one, and the job that
 * carries the filters is stored as jsonb, which refuses both.
 */
/** How large a WhatsApp request's report filters may be (JSON, bytes). */
export const MAX_WHATSAPP_DATA_BYTES = 20_000;

/** What a user hears when no reports worker is running (nothing is queued for later). */
export const NO_WORKER =
  'The reports worker is not running, so nothing was queued. Please try again in a few minutes, or tell your administrator.';

function textParams(query: unknown, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    const v = Array.isArray(value) ? value.at(-1) : value;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      const text = String(v);
      if (!isStorableText(key) || !isStorableText(text)) {
        const msg = 'contains characters that cannot be stored';
        throw new HttpError(400, `A report filter ${msg}.`, [
          { msg: `${prefix}${key} ${msg}`, path: `${prefix}${key}` },
        ]);
      }
      // Ids in lower case, as the report's own read takes them: the file's job, its headings'
      // names and its read then agree with the screen's for an id written in upper case.
      out[key] = isUuid(text) ? text.toLowerCase() : text;
    }
  }
  return out;
}

function requester(me: SignedInUser): Requester {
  return { id: me.id, name: me.name, role: me.role as Requester['role'] };
}

const jobIdOf = (parts: unknown) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40);

function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function sendFile(reply: FastifyReply, file: StoredFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('x-bahi-position', file.position)
    .header('x-content-sha256', file.sha256)
    .header('cache-control', 'private, no-store')
    .send(file.body);
}

/** A report file: PDF or XLSX. */
const REPORT_FILE = {
  description: 'The file',
  content: {
    'application/pdf': { schema: z.string().meta({ format: 'binary' }) },
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
      schema: z.string().meta({ format: 'binary' }),
    },
  },
};
const formatText = z.string().describe('pdf or xlsx');
const ledgerFileParams = z.object({ type: z.string(), id: z.string(), format: formatText });
/** A report download: the filters are the report's own query parameters, passed on as they are. */
const downloadSchema = <P extends z.ZodType>(summary: string, params: P) => ({
  summary,
  tags: ['reports'],
  params,
  querystring: z.record(z.string(), z.unknown()).describe("The report's own filters"),
  response: { 200: REPORT_FILE, 202: reportPending },
});
const fileSchema = {
  summary: 'A finished report file, by the link its notification gives',
  tags: ['reports'],
  params: z.object({ jobId: z.string() }),
  response: { 200: REPORT_FILE },
};
const sendNowSchema = {
  summary: 'Send now: send a WhatsApp send that is in the outbox (or failed) again (Admin)',
  description:
    "Reads the report again with the send's filters and queues it for the reports worker, which sends it with the WhatsApp transport the server has; the send's row in the outbox shows what became of it. 404 for an unknown id, 409 when it is already sent.",
  tags: ['reports'],
  params: z.object({ jobId: z.string().describe('The send job id') }),
  response: { 200: outboxSendNow, 202: outboxSendNow, 502: z.object({ message: z.string() }) },
};
const outboxSchema = {
  summary: 'The WhatsApp outbox and send history (Admin)',
  tags: ['reports'],
  response: { 200: whatsappOutbox },
};

export async function registerReportFileRoutes(app: FastifyInstance, deps: QueryDeps & ReportFileDeps) {
  const jobs = reportJobs(app, deps);
  registerDownloadRoutes(app, jobs);
  registerWhatsAppRoutes(app, jobs);
  registerOutboxRoutes(app, deps, jobs);
}

/** What the file and WhatsApp routes share: reading a report for a job, the queue, the answers. */
function reportJobs(app: FastifyInstance, deps: QueryDeps & ReportFileDeps) {
  const waitMs = deps.reportWaitMs ?? 20_000;

  /** The names of the city, collector or godown among the filters, for the file's heading. */
  const names = async (params: Record<string, string>) => {
    const ids = [params.city_id, params.entity_id, params.collector_id].filter(
      (id): id is string => !!id && isUuid(id),
    );
    return Object.fromEntries((await namesOf(deps, ids)).map((n) => [n.id, n.name]));
  };

  /** Reads a report exactly as its screen would, once the read models reach the head of the log. */
  const readReport = async (
    report: ReportName,
    params: Record<string, string>,
  ): Promise<{ source: ReportSource; position: string; readAt: string; chainHead?: string }> => {
    const head = await deps.eventStore.headPosition();
    const readAt = new Date().toISOString();
    const data: unknown = await REPORT_READERS[report].readForFile(deps, params, head);
    // The sealed chain head at the read position, for the file's footer (issue #30).
    const chain = await deps.eventStore.chainHeadAt?.(head);
    return {
      source: { report, params, names: await names(params), data },
      position: head.toString(),
      readAt,
      ...(chain ? { chainHead: chain.hash } : {}),
    };
  };

  /** A WhatsApp job that did not send: 503 when no worker would take it, 502 when it failed. */
  const notSent = (
    outcome: { kind: 'no-worker' } | { kind: 'failed'; reason: string },
    reply: FastifyReply,
  ) => {
    if (outcome.kind === 'no-worker')
      throw new HttpError(503, `Failed to send report via WhatsApp. ${NO_WORKER}`);
    return reply.code(502).send({ message: `Failed to send report via WhatsApp. ${outcome.reason}` });
  };
  /** What the transport did with a finished WhatsApp job (the worker's mark): accepted or outbox. */
  const sendStatus = async (reports: Reports, jobId: string) => {
    const sent = await reports.files.get(`${jobId}-sent`);
    return sent ? (JSON.parse(sent.body.toString()) as { status: string }).status : 'accepted';
  };

  /** The queue (Redis) out of reach is the server's trouble, said as such: 503, not a bare 500. */
  const queued = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      app.log.error({ err: error }, 'report job queue unavailable');
      throw new HttpError(
        503,
        'Report files are unavailable right now (the job queue cannot be reached). Please try again.',
      );
    }
  };

  const need = () => {
    if (!deps.reports)
      throw new HttpError(
        503,
        'Report files need the reports worker, and this server has no queue (REDIS_URL).',
      );
    return deps.reports;
  };

  return { waitMs, readReport, notSent, sendStatus, queued, need };
}
type ReportJobs = ReturnType<typeof reportJobs>;

/** Each report as a file (PDF or XLSX), and a finished file by its link. */
function registerDownloadRoutes(app: FastifyInstance, jobs: ReportJobs) {
  const { waitMs, readReport, queued, need } = jobs;
  const download = async (
    request: FastifyRequest,
    reply: FastifyReply,
    report: ReportName,
    format: unknown,
    extra: Record<string, string> = {},
  ) => {
    const me = signedIn(request);
    const parsed = formatParam.safeParse(format);
    if (!parsed.success) throw new HttpError(400, 'Download format is pdf or xlsx.');
    const reports = need();
    const params = { ...textParams(request.query), ...extra };
    const read = await readReport(report, params);
    const fmt: ReportFormat = parsed.data;
    // The same person asking for the same report and format at the same position gets the same job.
    const jobId = jobIdOf(['render', me.id, report, fmt, params, read.position]);
    const outcome = await queued(() =>
      runJob(
        reports,
        jobId,
        {
          kind: 'render',
          format: fmt,
          source: read.source,
          requester: requester(me),
          position: read.position,
          readAt: read.readAt,
          ...(read.chainHead ? { chainHead: read.chainHead } : {}),
        },
        waitMs,
      ),
    );
    if (outcome.kind === 'file') return sendFile(reply, outcome.file);
    if (outcome.kind === 'no-worker')
      throw new HttpError(503, `Failed to download ${fmt} report. ${NO_WORKER}`);
    if (outcome.kind === 'failed')
      throw new HttpError(503, `Failed to download ${fmt} report. ${outcome.reason}`);
    return reply.code(202).send({
      message: 'The report is still being prepared. You will be notified when it is ready to download.',
      jobId,
      link: `/api/reports/files/${jobId}`,
    });
  };

  // No automatic HEAD: a HEAD would run the whole job to send no body.
  const noHead = { exposeHeadRoute: false };
  const api = app.withTypeProvider<ZodTypeProvider>();
  for (const report of REPORT_NAMES.filter((name) => name !== 'ledger')) {
    api.get(
      `/api/reports/${report}/download/:format`,
      {
        ...noHead,
        schema: downloadSchema(`The ${report} report as a file`, z.object({ format: formatText })),
      },
      (request, reply) => download(request, reply, report, request.params.format),
    );
  }
  api.get(
    '/api/reports/ledger/:type/:id/download/:format',
    { ...noHead, schema: downloadSchema("A party's ledger as a file", ledgerFileParams) },
    (request, reply) =>
      download(request, reply, 'ledger', request.params.format, {
        type: request.params.type,
        id: request.params.id,
      }),
  );

  /** A finished file by its link (the notification's): the person who asked for it, or an Admin. */
  api.get('/api/reports/files/:jobId', { schema: fileSchema }, async (request, reply) => {
    const me = signedIn(request);
    const reports = need();
    const id = request.params.jobId;
    const file = /^[0-9a-f]{40}$/.test(id) ? await reports.files.get(id) : undefined;
    if (!file || (file.ownerId !== me.id && me.role !== 'Admin'))
      throw new HttpError(404, 'That report file is not available (files are kept for a day).');
    return sendFile(reply, file);
  });
}

/** A report sent as a file over WhatsApp. */
function registerWhatsAppRoutes(app: FastifyInstance, jobs: ReportJobs) {
  const { waitMs, readReport, notSent, sendStatus, queued, need } = jobs;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const whatsappBody = z.object({
    recipientNumber: z.string({ error: 'recipientNumber is required' }),
    reportName: z.enum(REPORT_NAMES, { error: `reportName must be one of ${REPORT_NAMES.join(', ')}` }),
    /** The report's filters, as in its download URL (a ledger's also its type and id). */
    data: z.record(z.string(), z.unknown()).default({}),
  });

  /** POST /api/reports/whatsapp {recipientNumber, reportName, data} -> {message}. */
  const whatsappSchema = {
    summary: 'Send a report as a file over WhatsApp',
    tags: ['reports'],
    body: whatsappBody.prefault({} as never),
    response: {
      200: z.object({ message: z.string(), jobId: z.string() }),
      202: reportPending,
      502: z.object({ message: z.string() }),
    },
  };

  api.post('/api/reports/whatsapp', { schema: whatsappSchema }, async (request, reply) => {
    const me = signedIn(request);
    const body = request.body;
    // The filters end up in an event (ReportSendRecorded): bounded, as every stored text is.
    if (Buffer.byteLength(JSON.stringify(body.data)) > MAX_WHATSAPP_DATA_BYTES)
      throw new HttpError(
        413,
        `A report's filters (data) can be at most ${MAX_WHATSAPP_DATA_BYTES / 1000} kB.`,
      );
    const recipient = parseRecipient(body.recipientNumber);
    if (!recipient)
      throw new HttpError(
        400,
        'recipientNumber must be a WhatsApp number in international form with its country code, such as +919876543210.',
      );
    const params = textParams(body.data, 'data.');
    if (body.reportName === 'ledger') {
      params.type = params.type ?? params.entityType ?? '';
      params.id = params.id ?? params.entityId ?? '';
      delete params.entityType;
      delete params.entityId;
      if (!params.type || !params.id) throw new HttpError(400, 'A ledger needs data.type and data.id.');
    }
    const reports = need();
    const read = await readReport(body.reportName, params);
    const key = request.headers['idempotency-key'];
    const jobId = jobIdOf(
      typeof key === 'string' && key
        ? ['whatsapp', me.id, key]
        : ['whatsapp', me.id, recipient, body.reportName, params, read.position],
    );
    const outcome = await queued(() =>
      runJob(
        reports,
        jobId,
        {
          kind: 'whatsapp',
          recipient,
          source: read.source,
          requester: requester(me),
          position: read.position,
          readAt: read.readAt,
          ...(read.chainHead ? { chainHead: read.chainHead } : {}),
        },
        waitMs,
      ),
    );
    if (outcome.kind === 'no-worker' || outcome.kind === 'failed') return notSent(outcome, reply);
    if (outcome.kind === 'pending')
      return reply.code(202).send({
        message: `The report is queued for WhatsApp to ${recipient}. You will be notified if it cannot be delivered.`,
        jobId,
      });
    const status = await sendStatus(reports, jobId);
    return {
      message:
        status === 'outbox'
          ? `The report was put in the WhatsApp outbox for ${recipient}; an Admin sends it from Settings > WhatsApp outbox.`
          : `The report was sent to ${recipient} via WhatsApp.`,
      jobId,
    };
  });
}

/** The WhatsApp outbox (Admins): its sends, and Send now. */
function registerOutboxRoutes(app: FastifyInstance, deps: QueryDeps & ReportFileDeps, jobs: ReportJobs) {
  const { waitMs, readReport, notSent, sendStatus, queued, need } = jobs;
  const api = app.withTypeProvider<ZodTypeProvider>();
  /**
   * Send now (issue #25): an Admin sends again a send that is in the outbox or failed. The
   * report is read again with the send's filters (a failed send has no file to send) and sent
   * by the reports worker with the server's transport, the same job as a first send; its
   * records go under the send's id, so its outbox row changes in place. The job's id comes
   * from the Idempotency-Key (a retried request finds its job and gets its answer again) or,
   * without one, from the send's latest record (two clicks on one row make one job).
   */
  api.post('/api/reports/whatsapp/outbox/:jobId/send', { schema: sendNowSchema }, async (request, reply) => {
    const me = signedIn(request);
    if (me.role !== 'Admin')
      throw new HttpError(403, 'Only an Admin can send a report from the WhatsApp outbox.');
    const sendId = request.params.jobId;
    let latest: { record: SendRecord; position: bigint } | undefined;
    for (const e of await deps.eventStore.readStream(SENDS_STREAM)) {
      const record = e.data as SendRecord;
      if (record.job_id === sendId) latest = { record, position: e.position };
    }
    if (!latest) throw new HttpError(404, 'No WhatsApp send has that id.');
    const { record } = latest;
    const reports = need();
    const key = request.headers['idempotency-key'];
    const jobId = jobIdOf(
      typeof key === 'string' && key
        ? ['whatsapp-send-now', me.id, key]
        : ['whatsapp-send-now', sendId, latest.position.toString()],
    );
    // A retry of a Send now that went through finds its job and answers as the first did.
    const known = (await queued(() => reports.queue.state(jobId))).state !== 'unknown';
    if (!known && (record.status === 'sent' || record.status === 'accepted'))
      throw new HttpError(409, `The report to ${record.recipient} is already sent.`);
    const report = REPORT_NAMES.find((name) => name === record.report);
    if (!report) throw new HttpError(409, `The report ${record.report} can no longer be sent.`);
    const read = await readReport(report, record.params);
    const job: WhatsAppJob = {
      kind: 'whatsapp',
      recipient: record.recipient,
      source: read.source,
      requester: requester(me),
      position: read.position,
      readAt: read.readAt,
      resend: { sendId, requestedBy: record.requested_by },
    };
    const outcome = await queued(() => runJob(reports, jobId, job, waitMs));
    if (outcome.kind === 'no-worker' || outcome.kind === 'failed') return notSent(outcome, reply);
    if (outcome.kind === 'pending')
      return reply.code(202).send({
        jobId: sendId,
        status: 'queued' as const,
        message: `The report to ${record.recipient} is being sent; its row changes when it is done.`,
      });
    const status = await sendStatus(reports, jobId);
    if (status === 'outbox')
      return {
        jobId: sendId,
        status: 'outbox' as const,
        message: `The report to ${record.recipient} stays in the outbox: WhatsApp is not set up on this server, so it was not sent. Open the file and send it by hand.`,
      };
    return {
      jobId: sendId,
      status: 'accepted' as const,
      message: `The report was sent to ${record.recipient} via WhatsApp.`,
    };
  });

  /**
   * The WhatsApp outbox and send history, newest first (Admins): each send's latest record (a
   * send an Admin marked sent by hand, POST /api/reports/whatsapp/outbox/{jobId}/sent on the
   * command side, keeps its place and shows status `sent`).
   */
  api.get('/api/reports/whatsapp/outbox', { schema: outboxSchema }, async (request) => {
    const me = signedIn(request);
    if (me.role !== 'Admin') throw new HttpError(403, 'Only an Admin can see the WhatsApp outbox.');
    const events = await deps.eventStore.readStream(SENDS_STREAM);
    const latest = new Map<string, SendRecord & { recorded_at: string; recorded_by: string | null }>();
    for (const e of events) {
      const r = e.data as SendRecord;
      // recorded_by: who recorded this record (the requester for the worker's, the Admin who marked it sent).
      latest.set(r.job_id, {
        ...r,
        recorded_at: e.metadata.recordedAt,
        recorded_by: e.metadata.userId ?? null,
      });
    }
    return {
      data: [...latest.values()].reverse().map((r) => ({ ...r, link: `/api/reports/files/${r.job_id}` })),
    };
  });
}

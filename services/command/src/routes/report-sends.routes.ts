import { type EventData, logPosition, REPORT_SENDS_STREAM } from '@bahi/contracts';
import { WrongExpectedVersionError } from '@bahi/event-store';
import {
  appendToLog,
  type ErrorMapping,
  HttpError,
  registerErrorMapping,
  signedIn,
  type ZodTypeProvider,
} from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CommandDeps } from '../deps.ts';
import { requestMeta } from '../request-meta.ts';

/** What the reports worker recorded of a send: the data of its `ReportSendRecorded` event. */
type SendRecord = EventData<'ReportSendRecorded'>;

/** Another send or mark was recorded meanwhile (the append's expected version): read the outbox again. */
const outboxChanged: ErrorMapping = (error) =>
  error instanceof WrongExpectedVersionError && error.streamId === REPORT_SENDS_STREAM
    ? new HttpError(409, 'The outbox changed meanwhile; look again and retry.')
    : undefined;

/**
 * The WhatsApp outbox's one write (issue #18): an Admin who sent a report by hand (the file
 * opened from Settings > WhatsApp outbox) marks it sent. It appends the send's record again with
 * status `sent` (transport, file, read position unchanged; who marked it is the event's
 * metadata), so the outbox, which shows each send's latest record, shows it sent.
 */
export async function registerReportSendRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  registerErrorMapping(app, outboxChanged);
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/reports/whatsapp/outbox/:jobId/sent',
    {
      schema: {
        summary: 'Mark a WhatsApp send from the outbox as sent by hand (Admin)',
        tags: ['reports'],
        params: z.object({ jobId: z.string().describe('The send job id') }),
        response: { 200: z.object({ jobId: z.string(), position: logPosition, message: z.string() }) },
      },
    },
    async (request) => {
      const me = signedIn(request);
      if (me.role !== 'Admin') throw new HttpError(403, 'Only an Admin can mark a WhatsApp send as sent.');
      const { jobId } = request.params;
      const events = await deps.eventStore.readStream(REPORT_SENDS_STREAM);
      let latest: SendRecord | undefined;
      for (const e of events) {
        const r = e.data as SendRecord;
        if (r.job_id === jobId) latest = r;
      }
      if (!latest) throw new HttpError(404, 'No WhatsApp send has that id.');
      if (latest.status === 'sent' || latest.status === 'accepted')
        throw new HttpError(409, `The report to ${latest.recipient} is already sent.`);
      const version = events.at(-1)?.streamVersion;
      const r = await appendToLog(
        deps.eventStore,
        REPORT_SENDS_STREAM,
        [
          {
            type: 'ReportSendRecorded',
            data: { ...latest, status: 'sent', error: null },
            metadata: requestMeta(request),
          },
        ],
        version ?? 'no_stream',
      );
      return {
        jobId,
        position: r.position.toString(),
        message: `The report to ${latest.recipient} is marked as sent.`,
      };
    },
  );
}

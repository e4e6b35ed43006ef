import { isUuid, RECORD_TYPES, recordHistoryAnswer } from '@bahi/contracts';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { isRecordType } from './journal-lines.ts';
import { readAfterClientPosition } from './reads.ts';
import { readRecordHistory } from './records.repository.ts';

/** `:type/:id` of a record: an unknown type, or an id that is no id, is a 404. */
const recordParams = z
  .object({
    type: z.string().describe(`One of ${RECORD_TYPES.join(', ')}`),
    id: z.string().describe("The record's id (a UUID)"),
  })
  .transform(({ type, id }) => {
    if (!isRecordType(type))
      throw new HttpError(404, `Records are looked up by type: one of ${RECORD_TYPES.join(', ')}.`);
    if (!isUuid(id)) throw new HttpError(404, `${type} not found.`);
    return { type, id: id.toLowerCase() };
  });

export async function registerRecordRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /**
   * A record a report line leads to (the line's `record`): its latest data, whether it was
   * deleted, its whole history from the activity log, and names for the ids in them.
   */
  api.get(
    '/api/reports/records/:type/:id',
    {
      schema: {
        summary: 'A record a report line leads to, with its history',
        tags: ['reports'],
        params: recordParams,
        response: { 200: recordHistoryAnswer },
      },
    },
    async (request) => {
      const me = signedIn(request);
      const { type, id } = request.params;
      await readAfterClientPosition(deps, request, ['activity_log', 'masters']);
      return readRecordHistory(deps, type, id, me.role);
    },
  );
}

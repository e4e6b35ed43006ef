import { chainVerification, verifyProgress } from '@bahi/contracts';
import { type ChainVerification, describeVerification } from '@bahi/event-store';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import type { QueryDeps } from './deps.ts';

/**
 * Admin: "Verify the books" (issue #30). Recomputes the chain over the whole log against the
 * stored seal. The verification reads the log in batches and yields to the event loop between
 * them; one runs at a time per process, and a request that arrives while one runs gets its answer.
 * GET /api/admin/verify/progress says how far it is, for the System screen to show while it waits.
 */
export async function registerVerifyRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  let running: Promise<ChainVerification> | undefined;
  let progress = { checked: 0, total: 0 };
  const adminOnly = (role: string) => {
    if (role !== 'Admin') throw new HttpError(403, `Your role (${role}) cannot verify the books.`);
  };
  api.get(
    '/api/admin/verify',
    {
      schema: {
        summary: 'Verify the books: recompute the chain over the event log (Admin)',
        tags: ['admin'],
        response: { 200: chainVerification },
      },
    },
    async (request) => {
      adminOnly(signedIn(request).role);
      const store = deps.eventStore;
      if (!store.verifyChain)
        throw new HttpError(
          409,
          'The event log is on EventStoreDB, which keeps no chain: verify it with its own tools.',
        );
      if (!running) {
        progress = { checked: 0, total: 0 };
        running = store
          .verifyChain({ onProgress: ({ checked, total }) => (progress = { checked, total }) })
          .finally(() => {
            running = undefined;
          });
      }
      const result = await running;
      return { ...result, summary: describeVerification(result) };
    },
  );
  api.get(
    '/api/admin/verify/progress',
    {
      schema: {
        summary: 'How far the running verification of the books is (Admin)',
        tags: ['admin'],
        response: { 200: verifyProgress },
      },
    },
    async (request) => {
      adminOnly(signedIn(request).role);
      return { running: running !== undefined, ...progress };
    },
  );
}

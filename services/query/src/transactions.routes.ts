import { purchasePage, salePage, transactionQuery } from '@bahi/contracts';
import { signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import type { QueryDeps } from './deps.ts';
import { readAfterClientPosition } from './reads.ts';
import { readPurchases, readSales, TRANSACTION_READS } from './transactions.repository.ts';

export async function registerTransactionListRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/transactions/purchases',
    {
      schema: {
        summary: 'Purchases, a page',
        tags: ['transactions'],
        querystring: transactionQuery,
        response: { 200: purchasePage },
      },
    },
    async (request) => {
      signedIn(request);
      await readAfterClientPosition(deps, request, TRANSACTION_READS);
      return readPurchases(deps, request.query);
    },
  );

  api.get(
    '/api/transactions/sales',
    {
      schema: {
        summary: 'Sales, a page',
        tags: ['transactions'],
        querystring: transactionQuery,
        response: { 200: salePage },
      },
    },
    async (request) => {
      signedIn(request);
      await readAfterClientPosition(deps, request, TRANSACTION_READS);
      return readSales(deps, request.query);
    },
  );
}

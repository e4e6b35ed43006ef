import {
  bulkSaleInput,
  bulkWriteAnswer,
  purchaseInput,
  purchaseReturnInput,
  saleInput,
  saleReturnInput,
  writeAnswer,
} from '@bahi/contracts';
import { writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import type { CommandDeps } from '../deps.ts';
import { contextOf, written } from '../handlers/context.ts';
import * as purchases from '../handlers/purchases.ts';
import * as sales from '../handlers/sales.ts';
import { recordIdParams } from './params.ts';

/** Purchases, sales and their returns: each route maps HTTP to a handler (handlers/). */
export async function registerTransactionRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  registerPurchaseRoutes(app, deps);
  registerSaleRoutes(app, deps);
}

const writer = writerOnly('transactions');
const tags = ['transactions'];

function registerPurchaseRoutes(app: FastifyInstance, deps: CommandDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/transactions/purchases',
    {
      preValidation: writer,
      schema: { summary: 'Record a purchase', tags, body: purchaseInput, response: { 201: writeAnswer } },
    },
    async (request, reply) => {
      const { id, position } = await purchases.recordPurchase(contextOf(deps, request), request.body);
      return reply.status(201).send(written(id, position));
    },
  );
  api.put(
    '/api/transactions/purchases/:id',
    {
      preValidation: writer,
      schema: {
        summary: 'Change a purchase',
        tags,
        params: recordIdParams('Purchase'),
        body: purchaseInput,
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const { id, position } = await purchases.updatePurchase(
        contextOf(deps, request),
        request.params.id,
        request.body,
      );
      return written(id, position);
    },
  );
  api.delete(
    '/api/transactions/purchases/:id',
    {
      preValidation: writer,
      schema: {
        summary: 'Delete a purchase',
        tags,
        params: recordIdParams('Purchase'),
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const { id, position } = await purchases.deletePurchase(contextOf(deps, request), request.params.id);
      return written(id, position);
    },
  );
  api.post(
    '/api/transactions/purchase-returns',
    {
      preValidation: writer,
      schema: {
        summary: 'Record a return of purchased goods',
        tags,
        body: purchaseReturnInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const { id, position } = await purchases.returnPurchase(contextOf(deps, request), request.body);
      return reply.status(201).send(written(id, position));
    },
  );
}

function registerSaleRoutes(app: FastifyInstance, deps: CommandDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/transactions/sales',
    {
      preValidation: writer,
      schema: { summary: 'Record a sale', tags, body: saleInput, response: { 201: writeAnswer } },
    },
    async (request, reply) => {
      const { id, position } = await sales.recordSale(contextOf(deps, request), request.body);
      return reply.status(201).send(written(id, position));
    },
  );
  api.put(
    '/api/transactions/sales/:id',
    {
      preValidation: writer,
      schema: {
        summary: 'Change a sale',
        tags,
        params: recordIdParams('Sale'),
        body: saleInput,
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const { id, position } = await sales.updateSale(
        contextOf(deps, request),
        request.params.id,
        request.body,
      );
      return written(id, position);
    },
  );
  api.delete(
    '/api/transactions/sales/:id',
    {
      preValidation: writer,
      schema: {
        summary: 'Delete a sale',
        tags,
        params: recordIdParams('Sale'),
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const { id, position } = await sales.deleteSale(contextOf(deps, request), request.params.id);
      return written(id, position);
    },
  );
  api.post(
    '/api/transactions/sales/bulk',
    {
      preValidation: writer,
      schema: {
        summary: 'Record several sales of one product from one godown at once',
        tags,
        body: bulkSaleInput,
        response: { 201: bulkWriteAnswer },
      },
    },
    async (request, reply) => {
      const { ids, position } = await sales.recordBulkSales(contextOf(deps, request), request.body);
      return reply.status(201).send({ ids, count: ids.length, position: position.toString() });
    },
  );
  api.post(
    '/api/transactions/sale-returns',
    {
      preValidation: writer,
      schema: {
        summary: 'Record a return of sold goods',
        tags,
        body: saleReturnInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const { id, position } = await sales.returnSale(contextOf(deps, request), request.body);
      return reply.status(201).send(written(id, position));
    },
  );
}

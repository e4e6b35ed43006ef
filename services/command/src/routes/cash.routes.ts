import {
  clearingPayoutInput,
  expenseInput,
  incomeInput,
  paymentInput,
  salaryPaymentInput,
  transferInput,
  writeAnswer,
} from '@bahi/contracts';
import { writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import type { CommandDeps } from '../deps.ts';
import * as cash from '../handlers/cash.ts';
import { contextOf, written } from '../handlers/context.ts';
import { recordIdParams } from './params.ts';

const tags = ['cash'];
const created = { 201: writeAnswer };

/** Payments, clearing payouts, salaries, transfers, expenses and income: HTTP to a handler (handlers/cash.ts). */
export async function registerCashRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/transactions/payments',
    {
      preValidation: writerOnly('payments'),
      schema: {
        summary: 'Record a payment to a funder or from an agent',
        tags,
        body: paymentInput,
        response: created,
      },
    },
    async (request, reply) => {
      const { id, position } = await cash.recordPayment(contextOf(deps, request), request.body);
      return reply.status(201).send(written(id, position));
    },
  );
  api.post(
    '/api/transactions/clearing-payouts',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: "Pay out a godown's clearing charges",
        tags,
        body: clearingPayoutInput,
        response: created,
      },
    },
    async (request, reply) => {
      const { id, position } = await cash.payOutClearing(contextOf(deps, request), request.body);
      return reply.status(201).send(written(id, position));
    },
  );
  api.post(
    '/api/transactions/salary-payments',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: "Pay a collector's salary for a month",
        tags,
        body: salaryPaymentInput,
        response: created,
      },
    },
    async (request, reply) => {
      const { id, position } = await cash.paySalary(contextOf(deps, request), request.body);
      return reply.status(201).send(written(id, position));
    },
  );
  api.post(
    '/api/transactions/transfers',
    {
      preValidation: writerOnly('transfers'),
      schema: { summary: 'Transfer cash between collectors', tags, body: transferInput, response: created },
    },
    async (request, reply) => {
      const { id, position } = await cash.recordTransfer(contextOf(deps, request), request.body);
      return reply.status(201).send(written(id, position));
    },
  );
  registerCashEntryRoutes(app, deps, 'Expense', 'expenses');
  registerCashEntryRoutes(app, deps, 'Income', 'incomes');
}

/** An expense's or an income's three routes: record, change, delete. */
function registerCashEntryRoutes(
  app: FastifyInstance,
  deps: CommandDeps,
  kind: cash.CashEntryKind,
  path: 'expenses' | 'incomes',
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const input = kind === 'Expense' ? expenseInput : incomeInput;
  api.post(
    `/api/transactions/${path}`,
    {
      preValidation: writerOnly('transactions'),
      schema: { summary: `Record an ${kind.toLowerCase()}`, tags, body: input, response: created },
    },
    async (request, reply) => {
      const { id, position } = await cash.recordCashEntry(contextOf(deps, request), kind, request.body);
      return reply.status(201).send(written(id, position));
    },
  );
  api.put(
    `/api/transactions/${path}/:id`,
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: `Change an ${kind.toLowerCase()}`,
        tags,
        params: recordIdParams(kind),
        body: input,
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const { id, position } = await cash.updateCashEntry(
        contextOf(deps, request),
        kind,
        request.params.id,
        request.body,
      );
      return written(id, position);
    },
  );
  api.delete(
    `/api/transactions/${path}/:id`,
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: `Delete an ${kind.toLowerCase()}`,
        tags,
        params: recordIdParams(kind),
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const { id, position } = await cash.deleteCashEntry(contextOf(deps, request), kind, request.params.id);
      return written(id, position);
    },
  );
}

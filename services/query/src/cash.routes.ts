import {
  type CashQuery,
  cashQuery,
  expensePage,
  incomePage,
  paidForMonth,
  paymentPage,
  salaryPage,
  transferPage,
  uuidText,
} from '@bahi/contracts';
import { signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CASH_READS,
  readExpenses,
  readIncomes,
  readPaidForMonth,
  readPayments,
  readSalaryReport,
  readTransfers,
} from './cash.repository.ts';
import type { QueryDeps } from './deps.ts';
import { readAfterClientPosition } from './reads.ts';

export async function registerCashListRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** The schema of a cash list: the cash filters, and a page of rows. */
  const cashList = <P extends z.ZodType>(summary: string, tag: 'transactions' | 'reports', page: P) => ({
    schema: { summary, tags: [tag], querystring: cashQuery, response: { 200: page } },
  });
  /** A cash list's answer: who asks is signed in, the read models are there, the repository reads. */
  const answer = async <T>(
    request: FastifyRequest & { query: CashQuery },
    read: (deps: QueryDeps, q: CashQuery) => Promise<T>,
  ) => {
    signedIn(request);
    await readAfterClientPosition(deps, request, CASH_READS);
    return read(deps, request.query);
  };

  api.get(
    '/api/transactions/expenses',
    cashList('Expenses (salary payments among them), a page', 'transactions', expensePage),
    (request) => answer(request, readExpenses),
  );
  api.get('/api/transactions/incomes', cashList('Incomes, a page', 'transactions', incomePage), (request) =>
    answer(request, readIncomes),
  );
  api.get(
    '/api/transactions/transfers',
    cashList('Transfers between collectors, a page', 'transactions', transferPage),
    (request) => answer(request, readTransfers),
  );
  api.get(
    '/api/reports/payments',
    cashList('Payments to funders and from agents, a page', 'reports', paymentPage),
    (request) => answer(request, readPayments),
  );
  api.get(
    '/api/reports/salary-report',
    cashList('Salary payments, a page', 'reports', salaryPage),
    (request) => answer(request, readSalaryReport),
  );

  /** What has been paid of one collector's salary for a month, in the city's currency. */
  api.get(
    '/api/transactions/salary-payments/paid-for-month',
    {
      schema: {
        summary: "What is paid of a collector's salary for a month",
        tags: ['transactions'],
        querystring: z.object({
          collector_id: uuidText('collector_id must be an id'),
          month: z.coerce.number({ error: 'month must be 1 to 12' }).int().min(1).max(12),
          year: z.coerce.number({ error: 'year must be a year' }).int().min(2000).max(2100),
        }),
        response: { 200: paidForMonth },
      },
    },
    async (request) => {
      signedIn(request);
      await readAfterClientPosition(deps, request, CASH_READS);
      return readPaidForMonth(deps, request.query);
    },
  );
}

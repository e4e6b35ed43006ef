import {
  averagePurchaseRate,
  balancesReport,
  cashbookReport,
  dashboardSummary,
  daywiseReport,
  ledgerQuery,
  ledgerReport,
  stockReport,
  uuidText,
} from '@bahi/contracts';
import { signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { readAfterClientPosition } from './reads.ts';
import { answerWith, balances, cashbook, daywise, ledger, ledgerParams, stock } from './report-readers.ts';
import { readAveragePurchaseRate, readDashboardSummary } from './reports.repository.ts';

export async function registerReportRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /**
   * One entity's account in business-date order (ties: event order) with a running balance on
   * its normal side; the opening balance is the entity's opening_balance plus everything before
   * startDate (ACCOUNTING.md section 3).
   */
  api.get(
    '/api/reports/ledger/:type/:id',
    {
      schema: {
        summary: "A party's ledger with its running balance",
        tags: ['reports'],
        params: ledgerParams,
        querystring: ledgerQuery,
        response: { 200: ledgerReport },
      },
    },
    (request) => answerWith(deps, request, ledger, { party: request.params, filters: request.query }),
  );

  /**
   * Stock per godown: product and quantity, from the stock lines of the journal. The spec's shape
   * (godown name -> its rows) in an object without a prototype, so a godown named `constructor`
   * or `__proto__` is a key like any other; each row carries its godown's and product's ids, so
   * two godowns of one name, listed under it together, stay apart.
   */
  api.get(
    '/api/reports/stock',
    {
      schema: {
        summary: 'Stock per godown',
        tags: ['reports'],
        querystring: stock.query,
        response: { 200: stockReport },
      },
    },
    (request) => answerWith(deps, request, stock, request.query),
  );

  /** The moving-average cost of a product in a godown, in INR per unit (0 when none is held). */
  api.get(
    '/api/reports/stock/average-purchase-rate',
    {
      schema: {
        summary: 'The moving-average cost of a product in a godown (INR per unit)',
        tags: ['reports'],
        querystring: z.object({
          product_id: uuidText('product_id must be an id'),
          godown_id: uuidText('godown_id must be an id'),
        }),
        response: { 200: averagePurchaseRate },
      },
    },
    async (request) => {
      signedIn(request);
      await readAfterClientPosition(deps, request, ['journal']);
      return readAveragePurchaseRate(deps, request.query);
    },
  );

  registerSummaryRoutes(app, deps);
}

/** The Balances report, the dashboard, the day-wise report and the cashbook. */
function registerSummaryRoutes(app: FastifyInstance, deps: QueryDeps): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** The Balances report: the four kinds of account, each a list page with its filters. */
  api.get(
    '/api/reports/balances',
    {
      schema: {
        summary: 'The Balances report: funders, agents, collectors and godowns',
        tags: ['reports'],
        querystring: balances.query,
        response: { 200: balancesReport },
      },
    },
    (request) => answerWith(deps, request, balances, request.query),
  );

  /**
   * The dashboard: each kind's total balance in INR (postings at their own rate snapshot,
   * opening balances at the city's current rate) and income against expense for the last 30
   * days (salaries count as expenses).
   */
  api.get(
    '/api/reports/dashboard-summary',
    {
      schema: {
        summary: "The dashboard's totals and the last 30 days' income and expense",
        tags: ['reports'],
        response: { 200: dashboardSummary },
      },
    },
    async (request) => {
      signedIn(request);
      await readAfterClientPosition(deps, request, ['masters', 'journal']);
      return readDashboardSummary(deps);
    },
  );

  /** Income and expense by day, in INR at each record's own rate (report-readers.ts). */
  api.get(
    '/api/reports/daywise-report',
    {
      schema: {
        summary: 'Income and expense by day',
        tags: ['reports'],
        querystring: daywise.query,
        response: { 200: daywiseReport },
      },
    },
    (request) => answerWith(deps, request, daywise, request.query),
  );

  /** A collector's or godown's cash: Cash In and Cash Out in business-date order. */
  api.get(
    '/api/reports/cashbook-report',
    {
      schema: {
        summary: "A collector's or godown's cash in and out",
        tags: ['reports'],
        querystring: cashbook.query,
        response: { 200: cashbookReport },
      },
    },
    (request) => answerWith(deps, request, cashbook, request.query),
  );
}

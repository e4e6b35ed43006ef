import {
  anyRow,
  averagePurchaseRate,
  balancesReport,
  dashboardSummary,
  ledgerReport,
  stockReport,
} from '@bahi/contracts';
import { PARTY_ACCOUNTS } from '@bahi/domain';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { daywiseRows } from './daywise.ts';
import type { QueryDeps } from './deps.ts';
import { listParties } from './parties.repository.ts';
import { day, moment, queryText } from './query-params.ts';
import { listQuery, readAfterClientPosition } from './reads.ts';
import {
  readAveragePurchaseRate,
  readCashbook,
  readDashboardSummary,
  readLedger,
  readStock,
  upTo,
} from './reports.repository.ts';

/** The books as recorded at a moment: every report takes it (docs/read-side.md, Time travel). */
const knownAt = moment('knownAt');
const ledgerQuery = z.object({
  startDate: day('startDate'),
  endDate: day('endDate'),
  asOf: day('asOf'),
  knownAt,
});

/** `:type/:id` of a ledger: a type that keeps no ledger, or an id that is no id, is a 404. */
const ledgerParams = z
  .object({
    type: z.string().describe('Funder, Agent, Collector or Godown'),
    id: z.string().describe("The party's id (a UUID)"),
  })
  .transform(({ type, id }) => {
    const entity = Object.hasOwn(PARTY_ACCOUNTS, type)
      ? PARTY_ACCOUNTS[type as keyof typeof PARTY_ACCOUNTS]
      : undefined;
    if (!entity) throw new HttpError(404, 'Ledgers are kept for Funder, Agent, Collector and Godown.');
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw new HttpError(404, `${type} not found.`);
    return { type, id, entity };
  });

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
    async (request) => {
      signedIn(request);
      const { id, entity } = request.params;
      const q = request.query;
      // The activity log holds each line's record as its event wrote it (the Particulars' words).
      await readAfterClientPosition(deps, request, ['masters', 'journal', 'activity_log']);
      return readLedger(deps, request.params, q);
    },
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
        querystring: z.object({ asOf: day('asOf'), knownAt }),
        response: { 200: stockReport },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, ['masters', 'journal']);
      return readStock(deps, q);
    },
  );

  /** The moving-average cost of a product in a godown, in INR per unit (0 when none is held). */
  api.get(
    '/api/reports/stock/average-purchase-rate',
    {
      schema: {
        summary: 'The moving-average cost of a product in a godown (INR per unit)',
        tags: ['reports'],
        querystring: z.object({
          product_id: z.uuid('product_id must be an id'),
          godown_id: z.uuid('godown_id must be an id'),
        }),
        response: { 200: averagePurchaseRate },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, ['journal']);
      return readAveragePurchaseRate(deps, q);
    },
  );

  /** The Balances report: the four kinds of account, each a list page with its filters. */
  api.get(
    '/api/reports/balances',
    {
      schema: {
        summary: 'The Balances report: funders, agents, collectors and godowns',
        tags: ['reports'],
        querystring: listQuery.extend({ asOf: day('asOf'), knownAt }),
        response: { 200: balancesReport },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      // As known at a moment, which parties there were comes from the activity log.
      await readAfterClientPosition(
        deps,
        request,
        q.knownAt ? ['masters', 'journal', 'activity_log'] : ['masters', 'journal'],
      );
      const at = { asOf: q.asOf, knownAt: q.knownAt };
      const [funders, agents, collectors, godowns] = await Promise.all(
        (['Funder', 'Agent', 'Collector', 'Godown'] as const).map((kind) =>
          listParties(deps, kind, kind === 'Godown' ? { ...q, city_id: undefined } : q, at),
        ),
      );
      return { funders: funders!, agents: agents!, collectors: collectors!, godowns: godowns! };
    },
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

  /**
   * Income and expense by day (salaries count as expenses). Amounts are in INR at each
   * record's own rate, so rows of different currencies add up to the Total and Net Total
   * rows; the amount as entered and its currency come along.
   */
  api.get(
    '/api/reports/daywise-report',
    {
      schema: {
        summary: 'Income and expense by day',
        tags: ['reports'],
        querystring: z.object({
          startDate: day('startDate'),
          endDate: day('endDate'),
          city_id: z.union([z.uuid('city_id must be an id'), z.literal('')]).optional(),
          category: queryText('category', 100),
          asOf: day('asOf'),
          knownAt,
        }),
        response: { 200: z.array(anyRow) },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(
        deps,
        request,
        q.knownAt ? ['activity_log', 'journal'] : ['cash_records', 'journal'],
      );
      return daywiseRows(deps, {
        startDate: q.startDate,
        endDate: upTo(q.endDate, q.asOf),
        city_id: q.city_id || undefined,
        category: q.category || undefined,
        knownAt: q.knownAt,
      });
    },
  );

  /** A collector's or godown's cash: Cash In and Cash Out in business-date order. */
  api.get(
    '/api/reports/cashbook-report',
    {
      schema: {
        summary: "A collector's or godown's cash in and out",
        tags: ['reports'],
        querystring: z.object({
          startDate: day('startDate'),
          endDate: day('endDate'),
          entity_type: z.enum(['Collector', 'Godown'], { error: 'entity_type must be Collector or Godown' }),
          entity_id: z.uuid('entity_id must be an id'),
          city_id: queryText('city_id', 100), // the UI sends it; the cashbook is one entity's
          asOf: day('asOf'),
          knownAt,
        }),
        response: { 200: z.array(anyRow) },
      },
    },
    async (request) => {
      signedIn(request);
      const q = request.query;
      await readAfterClientPosition(deps, request, ['masters', 'journal', 'activity_log']);
      return readCashbook(deps, q);
    },
  );
}

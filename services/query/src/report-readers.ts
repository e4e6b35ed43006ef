import {
  balancesQuery,
  cashbookQuery,
  cashQuery,
  daywiseQuery,
  isUuid,
  ledgerQuery,
  stockQuery,
} from '@bahi/contracts';
import { PARTY_ACCOUNTS } from '@bahi/domain';
import { HttpError, signedIn } from '@bahi/server-kit';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CASH_READS, readPayments, readSalaryReport } from './cash.repository.ts';
import { daywiseRows } from './daywise.ts';
import type { QueryDeps } from './deps.ts';
import { listParties } from './parties.repository.ts';
import { readAfterClientPosition, readAtPosition } from './reads.ts';
import { readCashbook, readLedger, readStock, upTo } from './reports.repository.ts';

/**
 * Each report as its screen and its files read it (issue #19): its filters (the route's query
 * schema), the read models it waits for, and its repository read. The JSON routes
 * (reports.routes.ts, cash.routes.ts) and the file and WhatsApp routes (report-files.routes.ts)
 * use the same reader, so a file holds exactly the figures the screen shows, with the same
 * filters refused the same way.
 */
export interface ReportReader<Q extends z.ZodType, T> {
  /** The report's filters, as the route's query string schema. */
  query: Q;
  /** The read models the report reads, for reading one's own writes. */
  reads: (q: z.output<Q>) => string[];
  read: (deps: QueryDeps, q: z.output<Q>) => Promise<T>;
  /**
   * A report file's read: the filters as text, parsed as the route parses them (a refusal is the
   * route's 400), read once the read models have reached `position`. List reports are read whole.
   */
  readForFile: (deps: QueryDeps, filters: Record<string, string>, position: bigint) => Promise<T>;
}

/** A report's JSON answer: who asks is signed in, the read models it reads are there, it is read. */
export async function answerWith<Q extends z.ZodType, T>(
  deps: QueryDeps,
  request: FastifyRequest,
  report: ReportReader<Q, T>,
  q: z.output<Q>,
): Promise<T> {
  signedIn(request);
  await readAfterClientPosition(deps, request, report.reads(q));
  return report.read(deps, q);
}

const reader = <Q extends z.ZodType, T>(
  query: Q,
  reads: (q: z.output<Q>) => string[],
  read: (deps: QueryDeps, q: z.output<Q>) => Promise<T>,
  options: { list?: boolean } = {},
): ReportReader<Q, T> => ({
  query,
  reads,
  read,
  async readForFile(deps, filters, position) {
    const q = query.parse(options.list ? { ...filters, page: '1', limit: '-1' } : filters);
    await readAtPosition(deps, reads(q), position);
    return read(deps, q);
  },
});

/** `:type/:id` of a ledger: a type that keeps no ledger, or an id that is no id, is a 404. */
export const ledgerParams = z
  .object({
    type: z.string().describe('Funder, Agent, Collector or Godown'),
    id: z.string().describe("The party's id (a UUID)"),
  })
  .transform(({ type, id }) => {
    const entity = Object.hasOwn(PARTY_ACCOUNTS, type)
      ? PARTY_ACCOUNTS[type as keyof typeof PARTY_ACCOUNTS]
      : undefined;
    if (!entity) throw new HttpError(404, 'Ledgers are kept for Funder, Agent, Collector and Godown.');
    if (!isUuid(id)) throw new HttpError(404, `${type} not found.`);
    return { type, id: id.toLowerCase(), entity };
  });

/** A ledger's reader: its party (`type`, `id`, the route's path) and its filters together. */
const ledgerInput = z.record(z.string(), z.string()).transform(({ type = '', id = '', ...filters }) => ({
  party: ledgerParams.parse({ type, id }),
  filters: ledgerQuery.parse(filters),
}));

// The activity log holds each line's record as its event wrote it (the Particulars' words).
export const ledger = reader(
  ledgerInput,
  () => ['masters', 'journal', 'activity_log'],
  (deps, q) => readLedger(deps, q.party, q.filters),
);

export const stock = reader(stockQuery, () => ['masters', 'journal'], readStock);

/** The Balances report: the four kinds of account, each a list page with its filters. */
export const balances = reader(
  balancesQuery,
  // As known at a moment, which parties there were comes from the activity log.
  (q) => (q.knownAt ? ['masters', 'journal', 'activity_log'] : ['masters', 'journal']),
  async (deps, q) => {
    const at = { asOf: q.asOf, knownAt: q.knownAt };
    const [funders, agents, collectors, godowns] = await Promise.all(
      (['Funder', 'Agent', 'Collector', 'Godown'] as const).map((kind) =>
        listParties(deps, kind, kind === 'Godown' ? { ...q, city_id: undefined } : q, at),
      ),
    );
    return { funders: funders!, agents: agents!, collectors: collectors!, godowns: godowns! };
  },
  { list: true },
);

/**
 * Income and expense by day (salaries count as expenses). Amounts are in INR at each record's
 * own rate, so rows of different currencies add up to the Total and Net Total rows; the amount
 * as entered and its currency come along.
 */
export const daywise = reader(
  daywiseQuery,
  (q) => (q.knownAt ? ['activity_log', 'journal'] : ['cash_records', 'journal']),
  (deps, q) =>
    daywiseRows(deps, {
      startDate: q.startDate,
      endDate: upTo(q.endDate, q.asOf),
      city_id: q.city_id || undefined,
      category: q.category || undefined,
      knownAt: q.knownAt,
    }),
);

/** A collector's or godown's cash: Cash In and Cash Out in business-date order. */
export const cashbook = reader(cashbookQuery, () => ['masters', 'journal', 'activity_log'], readCashbook);

export const payments = reader(cashQuery, () => CASH_READS, readPayments, { list: true });
export const salaryReport = reader(cashQuery, () => CASH_READS, readSalaryReport, { list: true });

/** The reports a file or a WhatsApp message can be made of, by their name in the API. */
export const REPORT_READERS = {
  ledger,
  stock,
  'daywise-report': daywise,
  balances,
  'cashbook-report': cashbook,
  payments,
  'salary-report': salaryReport,
} as const;

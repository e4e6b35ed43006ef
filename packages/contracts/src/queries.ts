import { z } from 'zod';
import { isStorableText, queryDate, uuidText } from './primitives.ts';

/**
 * The query strings of the read side (services/query), written once (issue #29): the routes
 * parse with these, the OpenAPI document comes from them, and the frontends' `api.ts` files take
 * their parameter types from them (`*Params` below: what a client sends).
 */

/**
 * A date query parameter as the UI sends it (a full ISO timestamp or YYYY-MM-DD), kept as the
 * calendar date; a day that does not exist (2026-02-30) is a clear 400, an empty one is unset.
 */
export const day = (label: string) =>
  z
    .union([z.literal('').transform(() => undefined), queryDate(label)])
    .optional()
    .transform((v) => v || undefined);

/** A yes/no query parameter: `true` or `false` (or empty, unset); anything else is a 400. */
export const flag = (label: string) =>
  z
    .enum(['true', 'false', ''], { error: `${label} must be true or false` })
    .optional()
    .transform((v) => (v === 'true' ? true : v === 'false' ? false : undefined));

/**
 * A text query parameter (a search, a category, a model name): at most `max` characters, and
 * none that Postgres cannot take as text (NUL, half a surrogate pair), which would otherwise
 * fail the query with a 500.
 */
export const queryText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} can be at most ${max} characters`)
    .refine(isStorableText, `${label} contains characters that cannot be searched for`)
    .optional();

const FIRST_MOMENT = Date.parse('0001-01-01T00:00:00Z');
const LAST_MOMENT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * A moment of recording (`knownAt`): an ISO date-time with its offset (Z or +05:30), at the
 * millisecond, the precision the journal and the activity log record at. Answered in UTC, so
 * the database never parses an offset or a year it cannot hold (+20:00, year 0 or 10000 in
 * UTC): a moment outside the years 0001 to 9999 is a 400 like any other bad value.
 */
export const moment = (label: string) =>
  z.iso
    .datetime({ offset: true, error: `${label} must be a moment such as 2026-11-21T10:00:00Z` })
    .transform((v) => new Date(v).toISOString())
    .refine(
      (v) => Date.parse(v) >= FIRST_MOMENT && Date.parse(v) <= LAST_MOMENT,
      `${label} must be a moment between the years 0001 and 9999 (UTC)`,
    )
    .optional();

/** An id filter: an id, or '' (all). */
const optionalIdFilter = (label: string) =>
  z.union([uuidText(`${label} must be an id`), z.literal('')]).optional();

/** Paging (spec section 7): page 1-based, limit 1 to 500 or -1 for all; a number or its text. */
export const paging = (defaultLimit: number) => ({
  page: z.coerce
    .number<number | string>({ error: 'page must be a number' })
    .int()
    .min(1, 'page starts at 1')
    .default(1),
  limit: z.coerce
    .number<number | string>({ error: 'limit must be a number' })
    .int()
    .refine((n) => n === -1 || (n >= 1 && n <= 500), 'limit is -1 (all) or 1 to 500')
    .default(defaultLimit),
});

/** Paging and filters of every list (spec section 7): limit 15 by default. */
export const listQuery = z.object({
  ...paging(15),
  search: queryText('search', 200),
  city_id: z.union([uuidText('city_id must be the id of a city'), z.literal('')]).optional(),
});
export type ListQuery = z.infer<typeof listQuery>;

/** A list of parties, with their balances as of a business date. */
export const partyListQuery = listQuery.extend({ asOf: day('asOf') });

/** Purchases and sales. */
export const transactionQuery = listQuery.extend({ startDate: day('startDate'), endDate: day('endDate') });
export type TransactionQuery = z.infer<typeof transactionQuery>;

/** The cash lists (payments, transfers, salaries, expenses, income) and their reports. */
export const cashQuery = listQuery.extend({
  startDate: day('startDate'),
  endDate: day('endDate'),
  category: queryText('category', 100),
  from_collector_id: optionalIdFilter('from_collector_id'),
  to_collector_id: optionalIdFilter('to_collector_id'),
  related_entity_type: z.enum(['Funder', 'Agent', 'All', '']).optional(),
  collector_id: optionalIdFilter('collector_id'),
  month: z.coerce.number<number | string>().int().min(1).max(12).optional(),
  year: z.coerce.number<number | string>().int().min(2000).max(2100).optional(),
});
export type CashQuery = z.infer<typeof cashQuery>;

/** The activity log. */
export const logsQuery = z.object({
  ...paging(25),
  userId: z.union([z.uuid('userId must be an id'), z.literal('')]).optional(),
  modelName: queryText('modelName', 50),
  actionType: z.union([z.enum(['CREATE', 'UPDATE', 'DELETE']), z.literal('')]).optional(),
  startDate: day('startDate'),
  endDate: day('endDate'),
});
export type LogsQuery = z.infer<typeof logsQuery>;

/** The books as recorded at a moment: every report takes it (docs/read-side.md, Time travel). */
const knownAt = moment('knownAt');

/** Every line of every edit and delete (the correction trail), or each record once as it stands. */
const corrections = flag('corrections');

/** A party's ledger (`/reports/ledger/:type/:id`). */
export const ledgerQuery = z.object({
  startDate: day('startDate'),
  endDate: day('endDate'),
  asOf: day('asOf'),
  knownAt,
  corrections,
});

/** The Stock report. */
export const stockQuery = z.object({ asOf: day('asOf'), knownAt });

/** The close a report as of `asOf` (as recorded at `knownAt`) falls under (issue #30). */
export const closedPeriodQuery = z.object({ asOf: day('asOf'), knownAt: moment('knownAt') });

/** The Balances report: the four kinds of account, each a list page with its filters. */
export const balancesQuery = listQuery.extend({ asOf: day('asOf'), knownAt });

/** The Day-wise report. */
export const daywiseQuery = z.object({
  startDate: day('startDate'),
  endDate: day('endDate'),
  city_id: z.union([uuidText('city_id must be an id'), z.literal('')]).optional(),
  category: queryText('category', 100),
  asOf: day('asOf'),
  knownAt,
});

/** A collector's or godown's Cashbook. */
export const cashbookQuery = z.object({
  startDate: day('startDate'),
  endDate: day('endDate'),
  entity_type: z.enum(['Collector', 'Godown'], { error: 'entity_type must be Collector or Godown' }),
  entity_id: uuidText('entity_id must be an id'),
  city_id: queryText('city_id', 100), // the UI sends it; the cashbook is one entity's
  asOf: day('asOf'),
  knownAt,
  corrections,
});

/**
 * What a client sends for each query string: the parameters the schema reads, by name, each as
 * its input or as text (a screen's filters come from the URL; the schema refuses a bad value
 * with a 400 on its name).
 */
export type ParamsOf<Q extends z.ZodType> = { [K in keyof z.input<Q>]?: z.input<Q>[K] | string };
export type ListParams = ParamsOf<typeof listQuery>;
export type LedgerParams = ParamsOf<typeof ledgerQuery>;
export type StockParams = ParamsOf<typeof stockQuery>;
export type BalancesParams = ParamsOf<typeof balancesQuery>;
export type DaywiseParams = ParamsOf<typeof daywiseQuery>;
export type CashbookParams = ParamsOf<typeof cashbookQuery>;
export type CashParams = ParamsOf<typeof cashQuery>;
export type LogsParams = ParamsOf<typeof logsQuery>;
export type TransactionParams = ParamsOf<typeof transactionQuery>;
export type ClosedPeriodParams = ParamsOf<typeof closedPeriodQuery>;

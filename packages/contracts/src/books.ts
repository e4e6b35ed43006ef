import { z } from 'zod';
import { businessDate, optionalBusinessDate, requiredText } from './primitives.ts';
import { logPosition } from './responses.ts';

export * from './books-words.ts';

/**
 * The period close (issue #30): "the books are closed up to <date>". Nothing dated on or
 * before that date is written, changed or deleted, by any role, until an Admin reopens.
 */

/** POST /api/books/close: close the books up to this date (Admin). */
export const closeBooksInput = z.object({ up_to: businessDate('Close up to') });
export type CloseBooksInput = z.output<typeof closeBooksInput>;

/** POST /api/books/reopen: move the close back (Admin), with the reason the log keeps. */
export const reopenBooksInput = z.object({
  reason: requiredText('Reason', 500),
  /** The earlier date the books stay closed up to; left out: the books are open again. */
  up_to: optionalBusinessDate('Keep closed up to'),
});
export type ReopenBooksInput = z.output<typeof reopenBooksInput>;

/** GET /api/books/close: the close as it stands (every date null: the books are open). */
export const booksCloseAnswer = z.object({
  closed_up_to: z.string().nullable(),
  /** Who closed (or last reopened) and when. */
  by: z.object({ id: z.string(), name: z.string() }).nullable(),
  at: z.string().nullable(),
  /** The reason of the last reopening, when the last change was one. */
  reason: z.string().nullable(),
});
export type BooksCloseAnswer = z.output<typeof booksCloseAnswer>;

/** The activity log's record id for the books (one record: the close). */
export const BOOKS_RECORD_ID = '00000000-0000-4000-8000-00000000b00c';

/** What a close or a reopening answers: the date the books are now closed up to, and the log position. */
export const booksWriteAnswer = z.object({
  closed_up_to: z.string().nullable(),
  position: logPosition,
});
export type BooksWriteAnswer = z.output<typeof booksWriteAnswer>;

/**
 * Reports as closed (issue #30): what a close records of the books as of its date, names left
 * out (a rename is not a change of the books): each party's opening balance and balance (a
 * godown's clearing balance and stock too) by kind, and the stock per godown and product, every
 * list in id order. Its canonical JSON (`canonicalJson`) is what the digest covers.
 */
const closedParty = z.object({
  id: z.string(),
  opening_balance: z.string(),
  balance: z.string(),
  clearing_balance: z.string().nullable().optional().describe("A godown's; absent for the other kinds"),
  stock: z
    .array(z.object({ product_id: z.string(), quantity: z.string() }))
    .optional()
    .describe("A godown's; absent for the other kinds"),
});
export const closedFigures = z.object({
  up_to: z.string().describe('The business date the figures are as of (the close date)'),
  balances: z.object({
    funders: z.array(closedParty),
    agents: z.array(closedParty),
    collectors: z.array(closedParty),
    godowns: z.array(closedParty),
  }),
  stock: z.array(z.object({ godown_id: z.string(), product_id: z.string(), quantity: z.string() })),
});
export type ClosedFigures = z.output<typeof closedFigures>;

/** One close as recorded: when, by whom, and the digest of its figures. */
export const bookClose = z.object({
  position: z.string().regex(/^\d+$/).describe("The close's position in the log (its id)"),
  up_to: z.string(),
  closed_at: z.string().describe('When the close was recorded (ISO moment, UTC)'),
  closed_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  digest: z.string().describe('SHA-256 (hex) of the canonical JSON of the figures at the close'),
  chain_head: z
    .string()
    .nullable()
    .describe("The sealed chain head at the close's position (null on a log without a chain)"),
});
export type BookClose = z.output<typeof bookClose>;

/** How the figures of a close stand now: their digest today, and whether that is the close's. */
export const closeNow = z.object({
  digest: z.string(),
  same: z.boolean().describe('false: restated since the close (only possible by reopening)'),
  reopened: z.boolean().describe('Whether the books are no longer closed up to this date'),
});

/** GET /api/books/closes/{position}/figures: the figures recorded at a close, and how they stand now. */
export const closedFiguresAnswer = z.object({ close: bookClose, figures: closedFigures, now: closeNow });
export type ClosedFiguresAnswer = z.output<typeof closedFiguresAnswer>;

/**
 * GET /api/books/closed?asOf=&knownAt=: the latest close (known by `knownAt`) whose date is on
 * or after `asOf`, or null: the period a report as of `asOf` reads was closed then.
 */
export const closedPeriodAnswer = z.object({ close: bookClose.extend({ now: closeNow }).nullable() });
export type ClosedPeriodAnswer = z.output<typeof closedPeriodAnswer>;

/** A party of the Balances report, in the shape a close records it. */
type BalanceParty = {
  id: string;
  opening_balance: string;
  balance: { amount: string };
  clearing_balance?: string | null | undefined;
  stock?: { product_id: string; quantity: string }[] | undefined;
};
type StockLine = { godown_id: string; product_id: string; quantity: string };
const byId =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/**
 * The figures of a close from the Balances report (all parties, `limit=-1`) and the stock
 * report as of its date: what the close stores and what a later reproduction is compared by.
 */
export function closedFiguresOf(
  upTo: string,
  balances: Record<'funders' | 'agents' | 'collectors' | 'godowns', { data: BalanceParty[] }>,
  stock: Record<string, StockLine[]>,
): ClosedFigures {
  const party = (p: BalanceParty) => ({
    id: p.id,
    opening_balance: p.opening_balance,
    balance: p.balance.amount,
    ...(p.clearing_balance !== undefined ? { clearing_balance: p.clearing_balance } : {}),
    ...(p.stock
      ? {
          stock: p.stock
            .map((s) => ({ product_id: s.product_id, quantity: s.quantity }))
            .sort(byId((s) => s.product_id)),
        }
      : {}),
  });
  const kind = (k: keyof typeof balances) => balances[k].data.map(party).sort(byId((p) => p.id));
  return {
    up_to: upTo,
    balances: {
      funders: kind('funders'),
      agents: kind('agents'),
      collectors: kind('collectors'),
      godowns: kind('godowns'),
    },
    stock: Object.values(stock)
      .flat()
      .map((s) => ({ godown_id: s.godown_id, product_id: s.product_id, quantity: s.quantity }))
      .sort(byId((s) => `${s.godown_id}:${s.product_id}`)),
  };
}

/**
 * Canonical JSON: object keys sorted, no whitespace, strings as JSON.stringify writes them
 * (figures are decimal text, never numbers). One text per value, so one digest.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

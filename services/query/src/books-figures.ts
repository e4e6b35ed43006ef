import { createHash } from 'node:crypto';
import {
  BOOKS_STREAM,
  type BookClose,
  type ClosedFigures,
  canonicalJson,
  closedFiguresOf,
} from '@bahi/contracts';
import { waitForProjections } from '@bahi/read-db';
import { HttpError } from '@bahi/server-kit';
import type { QueryDeps } from './deps.ts';
import { balances, stock } from './report-readers.ts';

/**
 * Reports as closed (issue #30; docs/decisions.md, "Reports as closed"). A close's figures are
 * the Balances report (every party) and the stock report as of its date, read as the books
 * were recorded at the close (time travel's `knownAt`, docs/read-side.md), names left out. They
 * are a function of the log up to the close, so the first reader stores them and any later
 * reading (after a rebuild, a restore, on another copy) computes the same bytes.
 */

/** The read models a close's figures are read from (time travel reads the journal and the activity log). */
export const CLOSE_READS = ['masters', 'journal', 'activity_log'];

/** One `BooksClosed` of the log: its position, date, moment and who closed. */
export interface CloseEvent {
  position: bigint;
  upTo: string;
  closedAt: string;
  userId: string | null | undefined;
}

/** The books stream in order: every close, and the date the books stand closed up to after each event. */
export async function readBooks(deps: QueryDeps) {
  const events = await deps.eventStore.readStream(BOOKS_STREAM);
  return events.map((e) => ({
    type: e.type,
    position: e.position,
    at: e.metadata.recordedAt,
    userId: e.metadata.userId,
    upTo: (e.data as { up_to: string | null }).up_to,
  }));
}

export const closesOf = (books: Awaited<ReturnType<typeof readBooks>>): CloseEvent[] =>
  books
    .filter((e) => e.type === 'BooksClosed' && e.upTo !== null)
    .map((e) => ({ position: e.position, upTo: e.upTo!, closedAt: e.at, userId: e.userId }));

/** The figures as of a date, as recorded at a moment (now, without one), and their digest. */
export async function figuresAsOf(
  deps: QueryDeps,
  upTo: string,
  knownAt: string | undefined,
): Promise<{ figures: ClosedFigures; json: string; digest: string }> {
  const at = knownAt ? { asOf: upTo, knownAt } : { asOf: upTo };
  const [all, held] = await Promise.all([
    balances.read(deps, balances.query.parse({ page: '1', limit: '-1', ...at })),
    stock.read(deps, stock.query.parse(at)),
  ]);
  const figures = closedFiguresOf(upTo, all, held);
  const json = canonicalJson(figures);
  return { figures, json, digest: sha256(json) };
}

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * A close's stored figures; the first reader stores them, once the read models have reached
 * the close (waiting up to `waitMs`: a 503 otherwise, like any read).
 */
export async function storedFigures(
  deps: QueryDeps,
  close: CloseEvent,
  waitMs = 2000,
): Promise<{ figures: string; digest: string; chain_head: string | null }> {
  const stored = await deps.readDb
    .selectFrom('book_close_figures')
    .select(['figures', 'digest', 'chain_head'])
    .where('position', '=', close.position.toString())
    .executeTakeFirst();
  if (stored) return stored;
  await waitForProjections(deps.readDb, CLOSE_READS, close.position, waitMs);
  const { json, digest } = await figuresAsOf(deps, close.upTo, new Date(close.closedAt).toISOString());
  const chain = await deps.eventStore.chainHeadAt?.(close.position, 2000);
  await deps.readDb
    .insertInto('book_close_figures')
    .values({
      position: close.position.toString(),
      up_to: close.upTo,
      closed_at: close.closedAt,
      figures: json,
      digest,
      chain_head: chain?.hash ?? null,
    })
    .onConflict((oc) => oc.column('position').doNothing())
    .execute();
  // Two first readers at once: both computed the same bytes; either row is the close's.
  return storedFigures(deps, close, waitMs);
}

/** A close as the API shows it, with the name of who closed. */
export async function describeClose(
  deps: QueryDeps,
  close: CloseEvent,
  stored: { digest: string; chain_head: string | null },
): Promise<BookClose> {
  const user = close.userId
    ? await deps.readDb
        .selectFrom('users')
        .select(['id', 'name'])
        .where('id', '=', close.userId)
        .executeTakeFirst()
    : undefined;
  return {
    position: close.position.toString(),
    up_to: close.upTo,
    closed_at: new Date(close.closedAt).toISOString(),
    closed_by: user ?? null,
    digest: stored.digest,
    chain_head: stored.chain_head,
  };
}

/**
 * How a close's figures stand as recorded at `knownAt` (now, without it): their digest then,
 * whether it is the close's, and whether the books had been reopened before its date by then.
 */
export async function closeNow(
  deps: QueryDeps,
  books: Awaited<ReturnType<typeof readBooks>>,
  close: CloseEvent,
  digest: string,
  knownAt: string | undefined,
) {
  const now = await figuresAsOf(deps, close.upTo, knownAt);
  const known = books.filter((e) => !knownAt || Date.parse(e.at) <= Date.parse(knownAt));
  const standing = known.at(-1)?.upTo ?? null;
  return {
    digest: now.digest,
    same: now.digest === digest,
    reopened: standing === null || standing < close.upTo,
  };
}

/** The close at a log position; 404 when there is none. */
export function closeAt(closes: CloseEvent[], position: string): CloseEvent {
  const close = /^\d{1,19}$/.test(position) ? closes.find((c) => c.position === BigInt(position)) : undefined;
  if (!close) throw new HttpError(404, 'There is no close of the books at that position.');
  return close;
}

/**
 * The close a report as of `asOf` (as recorded at `knownAt`) falls under: among the closes
 * known then whose date is on or after `asOf`, the latest one of that very date, else the latest.
 */
export function closeCovering(
  closes: CloseEvent[],
  asOf: string,
  knownAt: string | undefined,
): CloseEvent | undefined {
  const known = closes.filter(
    (c) => c.upTo >= asOf && (!knownAt || Date.parse(c.closedAt) <= Date.parse(knownAt)),
  );
  return known.filter((c) => c.upTo === asOf).at(-1) ?? known.at(-1);
}

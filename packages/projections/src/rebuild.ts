import { randomUUID } from 'node:crypto';
import type {
  BalanceDifference,
  ProjectionComparison,
  RebuildReport,
  TableComparison,
} from '@bahi/contracts';
import type { EventStore, RecordedEvent } from '@bahi/event-store';
import { type Database, migrations, type ReadDb } from '@bahi/read-db';
import { sql, type Transaction } from 'kysely';
import { allProjections } from './all-projections.ts';
import type { Projection } from './projection.ts';
import { loadQuarantined, withoutQuarantined } from './quarantine.ts';
import {
  type RebuildLock,
  rebuildSchemas,
  recoverInterruptedRebuilds,
  sharesOneConnection,
  takeRebuildLock,
} from './rebuild-lock.ts';

type Tx = Transaction<Database>;

export class RebuildRefused extends Error {
  override readonly name = 'RebuildRefused';
}

export interface RebuildOptions {
  eventStore: EventStore;
  readDb: ReadDb;
  /** Names to rebuild; none = every projection. */
  names?: readonly string[];
  /** Swap the rebuilt tables in (default) or only compare them with the live ones. */
  swap?: boolean;
  requestedBy?: string;
  /** An already claimed rebuild (from the Admin API's request): its row and its lock. */
  claimed?: { id: string; lock: RebuildLock };
  projections?: readonly Projection[];
  batchSize?: number;
  /** How long to wait for a live projection behind the rebuilt one before comparing anyway. */
  liveWaitMs?: number;
  onProgress?: (progress: { position: bigint; target: bigint; events: number }) => void;
  /** Told when each step after the replay is done. */
  onStep?: (step: 'replayed' | 'compared and swapped') => void;
  /** Told when one projection is through a step of its own (its lane, indexes, vacuum, swap). */
  onProjectionStep?: (projection: string, step: 'replayed' | 'indexed' | 'vacuumed' | 'compared') => void;
}

/** A rebuild asked for and not taken up for this long is given up (no projector is running). */
const ABANDONED_AFTER_MS = 5 * 60_000;
const BALANCE_DIFFERENCES_SHOWN = 100;
/** On PGlite: about how long one turn of a rebuild holds the connection. */
const TURN_MS = 50;
/** Batches read ahead of the slowest projection during a rebuild's replay. */
const AHEAD = 2;

export function resolveProjections(
  names: readonly string[] | undefined,
  projections: readonly Projection[] = allProjections,
): Projection[] {
  if (!names || names.length === 0) return [...projections];
  const unknown = names.filter((n) => !projections.some((p) => p.name === n));
  if (unknown.length > 0)
    throw new RebuildRefused(
      `Unknown projection ${unknown.join(', ')}; known: ${projections.map((p) => p.name).join(', ')}.`,
    );
  return projections.filter((p) => names.includes(p.name));
}

/** A rebuild asked for that no projector took up (none is running) is given up after a while. */
async function markAbandoned(readDb: ReadDb): Promise<void> {
  await readDb
    .updateTable('projection_rebuilds')
    .set({ status: 'failed', error: 'abandoned: no projector took it up', updated_at: new Date() })
    .where('status', '=', 'requested')
    .where('updated_at', '<', new Date(Date.now() - ABANDONED_AFTER_MS))
    .execute();
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * Records a rebuild (the Admin API asks; a projector process runs it). At most one rebuild is
 * asked for or running at a time.
 */
export async function requestRebuild(
  readDb: ReadDb,
  request: {
    names?: readonly string[];
    swap?: boolean;
    requestedBy: string;
    status?: 'requested' | 'running';
  },
  projections: readonly Projection[] = allProjections,
): Promise<string> {
  const chosen = resolveProjections(request.names, projections);
  // One a crash interrupted stands in nobody's way (its owner's lock is gone).
  await recoverInterruptedRebuilds(readDb);
  await markAbandoned(readDb);
  const id = randomUUID();
  const now = new Date();
  try {
    await readDb
      .insertInto('projection_rebuilds')
      .values({
        id,
        projections: JSON.stringify(chosen.map((p) => p.name)),
        swap: request.swap ?? true,
        status: request.status ?? 'requested',
        requested_by: request.requestedBy,
        requested_at: now,
        updated_at: now,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error))
      throw new RebuildRefused('Another rebuild is already asked for or running.');
    throw error;
  }
  return id;
}

/**
 * Takes the rebuild that was asked for, if any (one projector process gets it), with the lock
 * its runner holds until it is done (rebuild-lock.ts).
 */
export async function claimRequestedRebuild(readDb: ReadDb) {
  const asked = await readDb
    .selectFrom('projection_rebuilds')
    .select('id')
    .where('status', '=', 'requested')
    .executeTakeFirst();
  if (!asked) return undefined;
  // The lock first: a row that says `running` always has its owner's lock behind it.
  const lock = await takeRebuildLock(readDb);
  if (!lock) return undefined;
  try {
    const claimed = await readDb
      .updateTable('projection_rebuilds')
      .set({ status: 'running', updated_at: new Date() })
      .where('status', '=', 'requested')
      .returning(['id', 'projections', 'swap', 'requested_by'])
      .executeTakeFirst();
    if (!claimed) await lock.release();
    return claimed && { ...claimed, lock };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe identifier ${name}`);
  return sql.id(name);
};

async function useSchema(tx: Tx, schema: string) {
  await sql`SET LOCAL search_path TO ${ident(schema)}`.execute(tx);
}

/** Reads the log after `after` up to at least `upTo` (or its end). */
async function readRange(eventStore: EventStore, after: bigint, upTo: bigint): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  let from = after;
  while (from < upTo) {
    const page = await eventStore.readAll(from, 5000);
    if (page.length === 0) break;
    events.push(...page);
    from = page.at(-1)!.position;
  }
  return events;
}

/**
 * A table's row count and checksum: the sum of every row's 64-bit hash (each column hashed by
 * its type, as Postgres hashes it for joins), five times faster than an md5 of each row's text.
 */
async function compareTable(tx: Tx, live: string, shadow: string, projection: string, table: string) {
  const measure = async (schema: string) => {
    const { rows } = await sql<{ rows: string; checksum: string }>`
      SELECT count(*)::text AS rows,
             coalesce(sum(hash_record_extended(t, 0)), 0)::text AS checksum
        FROM ${ident(schema)}.${ident(table)} t`.execute(tx);
    return rows[0]!;
  };
  const [l, s] = [await measure(live), await measure(shadow)];
  return {
    projection,
    table,
    liveRows: Number(l.rows),
    shadowRows: Number(s.rows),
    liveChecksum: l.checksum,
    shadowChecksum: s.checksum,
    identical: l.rows === s.rows && l.checksum === s.checksum,
  } satisfies TableComparison;
}

async function balanceDifferences(tx: Tx, live: string, shadow: string): Promise<BalanceDifference[]> {
  const { rows } = await sql<BalanceDifference>`
    WITH l AS (SELECT account, currency, sum(amount) AS amount, sum(coalesce(quantity, 0)) AS quantity
                 FROM ${ident(live)}.journal GROUP BY account, currency),
         s AS (SELECT account, currency, sum(amount) AS amount, sum(coalesce(quantity, 0)) AS quantity
                 FROM ${ident(shadow)}.journal GROUP BY account, currency)
    SELECT coalesce(l.account, s.account) AS "account",
           coalesce(l.currency, s.currency) AS "currency",
           coalesce(l.amount, 0)::text AS "liveAmount",
           coalesce(s.amount, 0)::text AS "shadowAmount",
           coalesce(l.quantity, 0)::text AS "liveQuantity",
           coalesce(s.quantity, 0)::text AS "shadowQuantity"
      FROM l FULL JOIN s ON l.account = s.account AND l.currency = s.currency
     WHERE coalesce(l.amount, 0) <> coalesce(s.amount, 0) OR coalesce(l.quantity, 0) <> coalesce(s.quantity, 0)
     ORDER BY 1, 2
     LIMIT ${BALANCE_DIFFERENCES_SHOWN}`.execute(tx);
  return rows;
}

/** What one rebuild's steps share. */
interface Run {
  id: string;
  options: RebuildOptions;
  eventStore: EventStore;
  readDb: ReadDb;
  chosen: Projection[];
  swap: boolean;
  /**
   * On PGlite the rebuild shares the one connection with every read and write: it goes in
   * short turns (yieldingApply) and reads the log in smaller pages.
   */
  yielding: boolean;
  batchSize: number;
  shadow: string;
  retired: string;
  /** The live read models' schema. */
  live: string;
  /** Events an operator quarantined, per projection (quarantine.ts): left out as the live side did. */
  quarantined: Awaited<ReturnType<typeof loadQuarantined>>;
  /** Events every lane has applied. */
  events: number;
}

/**
 * Rebuilds read models from the log into a shadow schema while the live ones keep serving,
 * compares them (row counts, checksums, per-account balances) and, unless asked only to
 * compare, swaps each projection's tables in atomically. Writes go in short transactions
 * (a batch of events each), so the event store's readers are never held back.
 *
 * The swap takes the live projection's checkpoint row (its runner takes the same row for every
 * batch), brings the shadow to exactly the live position, compares, moves the live tables out
 * and the shadow ones in, all in one transaction: readers see the old tables or the new ones.
 */
export async function rebuildProjections(options: RebuildOptions): Promise<RebuildReport> {
  const { eventStore, readDb } = options;
  const yielding = sharesOneConnection(readDb);
  const batchSize = options.batchSize ?? (yielding ? 1000 : 5000);
  const chosen = resolveProjections(options.names, options.projections ?? allProjections);
  const swap = options.swap ?? true;
  const { id, lock } = options.claimed?.id ? options.claimed : await startRebuild(options, chosen, swap);
  const { shadow, retired } = rebuildSchemas(id);
  const startedAt = new Date().toISOString();
  // The live schema and the quarantined events are looked up once the rebuild's row is recorded
  // (a failure then marks it failed).
  const run: Run = {
    id,
    options,
    eventStore,
    readDb,
    chosen,
    swap,
    yielding,
    batchSize,
    shadow,
    retired,
    live: '',
    quarantined: new Map(),
    events: 0,
  };
  try {
    const { rows: current } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(
      readDb,
    );
    run.live = current[0]!.schema;
    run.quarantined = await loadQuarantined(eventStore);
    await createShadow(run);
    const comparisons = await replayCompareAndSwap(run);
    // Done means cleaned up: whoever reads the row as done finds no shadow left.
    await dropSchemas(run);
    const report: RebuildReport = {
      id,
      projections: chosen.map((p) => p.name),
      swap,
      events: run.events,
      identical: comparisons.every((c) => c.identical),
      comparisons,
      startedAt,
      finishedAt: new Date().toISOString(),
    };
    await readDb
      .updateTable('projection_rebuilds')
      .set({ status: 'done', report: JSON.stringify(report), updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    return report;
  } catch (error) {
    await readDb
      .updateTable('projection_rebuilds')
      .set({ status: 'failed', error: (error as Error).message, updated_at: new Date() })
      .where('id', '=', id)
      .execute()
      .catch(() => {});
    throw error;
  } finally {
    await dropSchemas(run).catch(() => {});
    await lock.release();
  }
}

/** A rebuild nobody claimed for it (the CLI's): its lock taken, its row recorded as running. */
async function startRebuild(
  options: RebuildOptions,
  chosen: readonly Projection[],
  swap: boolean,
): Promise<{ id: string; lock: RebuildLock }> {
  const { readDb } = options;
  await recoverInterruptedRebuilds(readDb);
  const lock = await takeRebuildLock(readDb);
  if (!lock) throw new RebuildRefused('Another rebuild is already asked for or running.');
  try {
    const id = await requestRebuild(
      readDb,
      {
        names: chosen.map((p) => p.name),
        swap,
        requestedBy: options.requestedBy ?? 'cli',
        status: 'running',
      },
      options.projections ?? allProjections,
    );
    return { id, lock };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** The shadow (and retired) schema, with every migration's tables in the shadow one. */
async function createShadow({ readDb, shadow, retired, yielding }: Run) {
  await sql`CREATE SCHEMA ${ident(shadow)}`.execute(readDb);
  await sql`CREATE SCHEMA ${ident(retired)}`.execute(readDb);
  // On PGlite each migration in a transaction of its own, the event loop let go between them
  // (together they held the one connection for seconds); a shadow left half made is dropped.
  const steps = Object.keys(migrations).sort();
  for (const batch of yielding ? steps.map((name) => [name]) : [steps]) {
    await readDb.transaction().execute(async (tx) => {
      await useSchema(tx, shadow);
      for (const name of batch) await migrations[name]!.up(tx as never);
    });
    if (yielding) await new Promise((resolve) => setImmediate(resolve));
  }
}

async function dropSchemas({ readDb, shadow, retired }: Run) {
  await sql`DROP SCHEMA IF EXISTS ${ident(shadow)} CASCADE`.execute(readDb);
  await sql`DROP SCHEMA IF EXISTS ${ident(retired)} CASCADE`.execute(readDb);
}

/** Records how far the replay is (the rebuild's row) and tells the caller. */
async function progress(run: Run, position: bigint, target: bigint) {
  await run.readDb
    .updateTable('projection_rebuilds')
    .set({ position, target, updated_at: new Date() })
    .where('id', '=', run.id)
    .execute();
  run.options.onProgress?.({ position, target, events: run.events });
}

/**
 * The replay, then each projection's indexes, vacuum, comparison and swap; answers the
 * comparisons once every projection is through (or throws the first failure).
 */
async function replayCompareAndSwap(run: Run): Promise<ProjectionComparison[]> {
  // Indexes that only queries use are built once at the end: kept up to date row by row
  // while millions of rows arrive, they cost the rebuild most of its Postgres time.
  // (On PGlite they stay: each index built at the end would hold the one connection for as
  // long as its sort takes, while the row by row upkeep is spread over the short turns.)
  const deferred = run.yielding ? [] : await dropDeferrableIndexes(run.readDb, run.shadow, run.chosen);
  // Catch up from the start of the log, every chosen projection on each batch read once.
  const replay: Replay = {
    lanes: run.chosen.map(() => Promise.resolve()),
    window: [],
    position: 0n,
    target: await run.eventStore.headPosition(),
  };
  await progress(run, replay.position, replay.target);
  const caughtUp = await replayLog(run, replay);
  const tails = afterReplay(run, replay, deferred, caughtUp);
  for (const tail of tails) tail.catch(() => {}); // settled below
  try {
    while (replay.window.length > 0) await settleOldest(run, replay);
  } catch (error) {
    await Promise.allSettled(tails);
    throw error;
  }
  await progress(run, replay.position, replay.position);
  run.options.onStep?.('replayed');
  const settled = await Promise.allSettled(tails);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  const comparisons = settled.map((r) => (r as PromiseFulfilledResult<ProjectionComparison>).value);
  run.options.onStep?.('compared and swapped');
  return comparisons;
}

/**
 * Each projection applies the batches in order in a lane of its own, so a slow projection
 * holds back only itself; the log is read at most AHEAD batches in front of the slowest.
 */
interface Replay {
  /** Each projection's lane (in the order of `chosen`): the batches given to it, applied in turn. */
  lanes: Promise<unknown>[];
  /** Batches handed to the lanes and not yet settled, oldest first. */
  window: Array<{ done: Promise<unknown>; last: bigint; size: number }>;
  /** Where every lane is through. */
  position: bigint;
  /** The head of the log the replay is going for. */
  target: bigint;
}

/** Waits for the oldest batch in the window to be through every lane and records the progress. */
async function settleOldest(run: Run, replay: Replay) {
  const oldest = replay.window.shift()!;
  try {
    await oldest.done;
  } catch (error) {
    await Promise.allSettled(replay.lanes); // nothing of the shadow is still being written
    throw error;
  }
  replay.position = oldest.last;
  run.events += oldest.size;
  await progress(run, replay.position, replay.target);
}

/**
 * Reads the log from the start until it is within a batch of its head, each batch once, and hands
 * each batch to every lane; answers the position of the last event read.
 */
async function replayLog(run: Run, replay: Replay): Promise<bigint> {
  const { eventStore, batchSize } = run;
  const turns = run.yielding ? yieldingApply(run) : undefined;
  // Each batch is read once; the projections apply it side by side, each in its own short
  // transaction (on Postgres they run in parallel backends; PGlite takes them in turn), while
  // the next batch is read.
  const read = (after: bigint) => {
    const page = eventStore.readAll(after, batchSize);
    page.catch(() => {}); // awaited below; never an unhandled rejection if we stop first
    return page;
  };
  let readAt = replay.position;
  let next = read(readAt);
  for (;;) {
    const batch = await next;
    if (batch.length === 0) break;
    readAt = batch.at(-1)!.position;
    const done = Promise.all(
      run.chosen.map((projection, i) => {
        replay.lanes[i] = replay.lanes[i]!.then(() => applyToShadow(run, turns, projection, batch));
        return replay.lanes[i];
      }),
    );
    done.catch(() => {}); // awaited by settleOldest
    replay.window.push({ done, last: readAt, size: batch.length });
    if (readAt >= replay.target) {
      const head = await eventStore.headPosition();
      if (head - readAt < BigInt(batchSize)) break;
      replay.target = head;
    }
    next = read(readAt);
    while (replay.window.length > AHEAD) await settleOldest(run, replay);
  }
  return readAt;
}

/** One projection's share of a batch, applied to the shadow (on PGlite, in turns). */
function applyToShadow(
  run: Run,
  turns: ReturnType<typeof yieldingApply> | undefined,
  projection: Projection,
  batch: RecordedEvent[],
) {
  if (turns)
    return turns(projection, batch, (tx, slice) => applyOrExplain(projection, tx, slice, run.quarantined));
  return run.readDb.transaction().execute(async (tx) => {
    await useSchema(tx, run.shadow);
    // The shadow is rebuilt from scratch if anything stops it: its commits need not
    // wait for the disk (a crash loses at most the last ones; the swap commits durably).
    await sql`SET LOCAL synchronous_commit = off`.execute(tx);
    await applyOrExplain(projection, tx, batch, run.quarantined);
  });
}

/**
 * Each projection, once its lane has applied the last batch: its deferred indexes (each a
 * sort of its table) and VACUUM (ANALYZE) of its tables (fresh tables have no planner
 * statistics and no visibility map), while the slower lanes go on; then, once every lane is
 * through, the comparison and swap under its checkpoint's lock. At most two such steps at a
 * time.
 */
function afterReplay(
  run: Run,
  replay: Replay,
  deferred: Awaited<ReturnType<typeof dropDeferrableIndexes>>,
  caughtUp: bigint,
): Promise<ProjectionComparison>[] {
  const { readDb, shadow, yielding } = run;
  const heavy = limiter(2);
  return run.chosen.map((projection, i) =>
    replay.lanes[i]!.then(async () => {
      run.options.onProjectionStep?.(projection.name, 'replayed');
      // A projection's indexes side by side (the journal, last to finish, has the big ones).
      await Promise.all(
        deferred
          .filter((d) => projection.tables.includes(d.table))
          .map((index) =>
            heavy(() =>
              readDb.transaction().execute(async (tx) => {
                await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(tx);
                await sql.raw(index.definition).execute(tx);
              }),
            ),
          ),
      );
      run.options.onProjectionStep?.(projection.name, 'indexed');
      // VACUUM cannot run inside a transaction: each table on its own.
      await Promise.all(
        projection.tables.map((table) =>
          heavy(() =>
            // On PGlite, ANALYZE alone: it samples the table, where VACUUM reads all of it
            // while the one connection waits (the visibility map can come later).
            yielding
              ? sql`ANALYZE ${ident(shadow)}.${ident(table)}`.execute(readDb)
              : sql`VACUUM (ANALYZE) ${ident(shadow)}.${ident(table)}`.execute(readDb),
          ),
        ),
      );
      run.options.onProjectionStep?.(projection.name, 'vacuumed');
      // Nothing is swapped unless every projection has replayed the whole log.
      await Promise.all(replay.lanes);
      const comparison = await heavy(() => finish(run, projection, caughtUp));
      run.options.onProjectionStep?.(projection.name, 'compared');
      return comparison;
    }),
  );
}

/**
 * PGlite: one turn at a time over every projection, each a transaction sized to take about
 * TURN_MS (its size follows how long the last one took), then the event loop is let go, so
 * the reads and writes that queued for the connection meanwhile run before the next turn.
 */
function yieldingApply({ readDb, shadow, batchSize }: Run) {
  const one = limiter(1);
  const sizes = new Map<string, number>();
  return async (
    projection: Projection,
    batch: RecordedEvent[],
    apply: (tx: Tx, slice: RecordedEvent[]) => Promise<void>,
  ) => {
    for (let from = 0; from < batch.length; ) {
      const size = sizes.get(projection.name) ?? 100;
      const slice = batch.slice(from, from + size);
      const took = await one(async () => {
        const t0 = performance.now();
        await readDb.transaction().execute(async (tx) => {
          await useSchema(tx, shadow);
          await sql`SET LOCAL synchronous_commit = off`.execute(tx);
          await apply(tx, slice);
        });
        const ms = performance.now() - t0;
        await new Promise((resolve) => setImmediate(resolve));
        return ms;
      });
      from += slice.length;
      const scaled = Math.round((size * TURN_MS) / Math.max(took, 1));
      sizes.set(projection.name, Math.max(10, Math.min(batchSize, scaled, size * 2)));
    }
  };
}

/**
 * Brings one projection's shadow to the live side's position under its checkpoint's lock,
 * then compares and (unless only comparing) swaps, in that one transaction.
 */
async function finish(run: Run, projection: Projection, caughtUp: bigint): Promise<ProjectionComparison> {
  const { eventStore, readDb, shadow, live, quarantined } = run;
  const { liveWaitMs = 5000 } = run.options;
  let shadowAt = caughtUp;
  await readDb
    .insertInto('projection_checkpoints')
    .values({ name: projection.name, position: 0n })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  for (let attempt = 0; ; attempt++) {
    // Bring the shadow close to the head outside any lock, then read what is left.
    const head = await eventStore.headPosition();
    const tail = await readRange(eventStore, shadowAt, head);
    const tailEnd = tail.at(-1)?.position ?? shadowAt;
    const outcome = await readDb.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom('projection_checkpoints')
        .select(['position', 'status'])
        .where('name', '=', projection.name)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const liveAt = BigInt(row.position);
      // The live side is further than what was read: read more, outside the lock.
      if (liveAt > tailEnd) return 'again' as const;
      if (liveAt > shadowAt) {
        await useSchema(tx, shadow);
        await applyOrExplain(
          projection,
          tx,
          tail.filter((e) => e.position > shadowAt && e.position <= liveAt),
          quarantined,
        );
        shadowAt = liveAt;
        await useSchema(tx, live);
      }
      // A live side behind the shadow (lagging, or stopped by a failure) cannot be compared at
      // the same position; give a running one a moment to catch up first.
      if (liveAt < shadowAt && row.status !== 'failed' && attempt * 100 < liveWaitMs) return 'wait' as const;
      return compareAndSwap(tx, run, projection, liveAt, shadowAt);
    });
    if (outcome === 'wait') await new Promise((r) => setTimeout(r, 100));
    if (typeof outcome === 'object') return outcome;
  }
}

/**
 * Inside `finish`'s transaction (the checkpoint row taken): compares the projection's tables
 * (and the balances, if the journal differs), and swaps them in when asked to.
 */
async function compareAndSwap(
  tx: Tx,
  { live, shadow, retired, swap }: Run,
  projection: Projection,
  liveAt: bigint,
  shadowAt: bigint,
): Promise<ProjectionComparison> {
  const tables = [];
  for (const table of projection.tables)
    tables.push(await compareTable(tx, live, shadow, projection.name, table));
  // Balances are sums of journal lines: only a journal that differs can differ in them.
  const journal = tables.find((t) => t.table === 'journal');
  const differences = journal && !journal.identical ? await balanceDifferences(tx, live, shadow) : [];
  if (swap) {
    for (const table of projection.tables) {
      await sql`ALTER TABLE ${ident(live)}.${ident(table)} SET SCHEMA ${ident(retired)}`.execute(tx);
      await sql`ALTER TABLE ${ident(shadow)}.${ident(table)} SET SCHEMA ${ident(live)}`.execute(tx);
    }
    await tx
      .updateTable('projection_checkpoints')
      .set({ position: shadowAt, status: 'running', error: null, updated_at: new Date() })
      .where('name', '=', projection.name)
      .execute();
  }
  return {
    projection: projection.name,
    livePosition: liveAt.toString(),
    shadowPosition: shadowAt.toString(),
    identical: liveAt === shadowAt && tables.every((t) => t.identical) && differences.length === 0,
    swapped: swap,
    tables,
    balanceDifferences: differences,
  } satisfies ProjectionComparison;
}

/** Runs the functions given to it, at most `max` at a time, in the order they came. */
function limiter(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // a finished one hands its slot over
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/**
 * Drops the shadow tables' non-unique indexes that no chosen projection reads through while
 * applying events; returns their definitions (pg_get_indexdef: same name, same schema) to be
 * built after the replay.
 */
async function dropDeferrableIndexes(readDb: ReadDb, shadow: string, projections: readonly Projection[]) {
  const tables = projections.flatMap((p) => p.tables);
  const keep = new Set(projections.flatMap((p) => p.readIndexes ?? []));
  const { rows } = await sql<{ name: string; table: string; definition: string }>`
    SELECT i.relname AS name, t.relname AS table, pg_get_indexdef(i.oid) AS definition
      FROM pg_index x
      JOIN pg_class i ON i.oid = x.indexrelid
      JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
     WHERE n.nspname = ${shadow} AND NOT x.indisunique AND t.relname IN (${sql.join(tables)})
     ORDER BY i.relname`.execute(readDb);
  const deferred = rows.filter((r) => !keep.has(r.name));
  for (const index of deferred) await sql`DROP INDEX ${ident(shadow)}.${ident(index.name)}`.execute(readDb);
  return deferred;
}

async function applyOrExplain(
  projection: Projection,
  tx: Tx,
  all: readonly RecordedEvent[],
  quarantined: ReadonlyMap<string, ReadonlySet<bigint>>,
) {
  // A rebuild leaves out what an operator quarantined for this projection, as the live one did.
  const events = withoutQuarantined(all, quarantined.get(projection.name));
  if (events.length === 0) return;
  try {
    await projection.apply(tx, events);
  } catch (error) {
    throw new Error(
      `${projection.name} cannot apply the events after position ${events[0]!.position - 1n}: ${(error as Error).message}`,
    );
  }
}

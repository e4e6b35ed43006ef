import { setTimeout as sleep } from 'node:timers/promises';
import type { SqlClient, SqlQueryable } from '@bahi/sql-client';
import { CHAIN_GENESIS, type ChainedEvent, chainHash } from '../chain.ts';
import type { ChainBreak, ChainPoint, ChainVerification, VerifyChainOptions } from '../types.ts';
import { SEAL_LOCK } from './schema.ts';

/**
 * The seal (docs/event-store.md, "The seal"): a projection of the log into es.chain
 * (global_position, hash), written in log order shortly after the events are appended, with
 * the chain of chain.ts. Sealers in any number of processes take turns under one advisory lock;
 * each batch is a short transaction that continues from the last stored hash (never from a
 * hash recomputed from the events: an event changed after it was sealed cannot re-seal itself).
 */

// Rows below the oldest running transaction are final (docs/event-store.md, "Why readers never
// skip"): sealing only those, in position order, never seals past a position still to commit.
const VISIBLE = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

/** An event as the chain reads it: int8 values as text (the two drivers parse int8 differently). */
export interface ChainedRow {
  position: string;
  id: string;
  stream_id: string;
  version: string;
  type: string;
  data: unknown;
  metadata: ChainedEvent['metadata'];
  [key: string]: unknown;
}
type Row = ChainedRow;

const SELECT_CHAINED = `SELECT global_position::text AS position, event_id::text AS id, stream_id,
  stream_version::text AS version, type, data, metadata FROM es.events`;

/** The events after `after` up to and including `upTo`, in log order, at most `limit`. */
export async function readChainedRows(
  sql: SqlQueryable,
  after: bigint,
  upTo: bigint,
  limit: number,
): Promise<ChainedRow[]> {
  const { rows } = await sql.query<Row>(
    `${SELECT_CHAINED} WHERE global_position > $1::bigint AND global_position <= $2::bigint ORDER BY global_position LIMIT $3`,
    [after.toString(), upTo.toString(), limit],
  );
  return rows;
}

const toChained = (row: Row): ChainedEvent => ({
  position: BigInt(row.position),
  id: row.id,
  streamId: row.stream_id,
  streamVersion: BigInt(row.version),
  type: row.type,
  data: row.data,
  metadata: row.metadata,
});

async function lastSeal(sql: SqlQueryable, atOrBelow?: bigint): Promise<ChainPoint> {
  const { rows } = await sql.query<{ position: string; hash: string }>(
    atOrBelow === undefined
      ? 'SELECT global_position::text AS position, hash FROM es.chain ORDER BY global_position DESC LIMIT 1'
      : 'SELECT global_position::text AS position, hash FROM es.chain WHERE global_position <= $1::bigint ORDER BY global_position DESC LIMIT 1',
    atOrBelow === undefined ? [] : [atOrBelow.toString()],
  );
  const row = rows[0];
  return row ? { position: BigInt(row.position), hash: row.hash } : { position: 0n, hash: CHAIN_GENESIS };
}

/**
 * Seals every final event not sealed yet, in batches; returns the sealed head and whether
 * events exist above it that were not final yet (a transaction still open below them).
 */
export async function sealChain(
  sql: SqlClient,
  options: { batchSize?: number } = {},
): Promise<{ sealed: ChainPoint; pending: boolean }> {
  const batchSize = options.batchSize ?? 2000;
  for (;;) {
    const { sealed, count, head } = await sql.transaction(async (tx) => {
      // The seal can always be recomputed from the log, so its commit does not wait for the disk
      // (a crash loses at most the last moment's seals, which the next pass writes again).
      await tx.query("SELECT pg_advisory_xact_lock($1), set_config('synchronous_commit', 'off', true)", [
        SEAL_LOCK,
      ]);
      const { rows: at } = await tx.query<{
        position: string | null;
        hash: string | null;
        head: string | null;
      }>(
        `SELECT c.global_position::text AS position, c.hash,
                (SELECT max(global_position) FROM es.events)::text AS head
           FROM (SELECT 1) one
           LEFT JOIN LATERAL (SELECT global_position, hash FROM es.chain ORDER BY global_position DESC LIMIT 1) c ON true`,
      );
      const last: ChainPoint = at[0]?.position
        ? { position: BigInt(at[0].position), hash: at[0].hash! }
        : { position: 0n, hash: CHAIN_GENESIS };
      const head = BigInt(at[0]?.head ?? '0');
      if (head <= last.position) return { sealed: last, count: 0, head };
      const { rows } = await tx.query<Row>(
        `${SELECT_CHAINED} WHERE global_position > $1::bigint AND ${VISIBLE} ORDER BY global_position LIMIT $2`,
        [last.position.toString(), batchSize],
      );
      if (rows.length === 0) return { sealed: last, count: 0, head };
      let hash = last.hash;
      const seals = rows.map((row) => {
        hash = chainHash(hash, toChained(row));
        return [row.position, hash];
      });
      await tx.query(
        `INSERT INTO es.chain (global_position, hash)
         SELECT (x->>0)::bigint, x->>1 FROM jsonb_array_elements($1::jsonb) AS x`,
        [JSON.stringify(seals)],
      );
      return { sealed: { position: BigInt(rows.at(-1)!.position), hash }, count: rows.length, head };
    });
    if (count < batchSize) return { sealed, pending: head > sealed.position };
  }
}

/**
 * The chain head at a position: the sealed hash of the last event at or below it, once the
 * seal has reached it (sealing now, and waiting up to waitMs for transactions below it to
 * end). Undefined when the seal cannot reach it in that time.
 */
export async function sealedChainAt(
  sql: SqlClient,
  position: bigint,
  waitMs = 2000,
): Promise<ChainPoint | undefined> {
  const until = Date.now() + waitMs;
  for (;;) {
    const { sealed, pending } = await sealChain(sql);
    if (sealed.position >= position || !pending) return lastSeal(sql, position);
    if (Date.now() >= until) return undefined;
    await sleep(20);
  }
}

/**
 * The chain recomputed from the events as they are now, up to and including position (not the
 * stored seal): what a report file's chain head is checked against.
 */
export async function recomputeChainAt(
  sql: SqlQueryable,
  position: bigint,
  batchSize = 2000,
): Promise<ChainPoint & { events: number }> {
  let point: ChainPoint = { position: 0n, hash: CHAIN_GENESIS };
  let events = 0;
  for (;;) {
    const rows = await readChainedRows(sql, point.position, position, batchSize);
    for (const row of rows)
      point = { position: BigInt(row.position), hash: chainHash(point.hash, toChained(row)) };
    events += rows.length;
    if (rows.length < batchSize) return { ...point, events };
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A chain head someone kept (a report file's footer, a manifest) against the log now: it
 * verifies when the chain recomputed from the events up to its position equals it. When it
 * does not, the stored seal tells why: equal to the kept head, the log was altered at or before
 * the position after it was sealed; different, the head is not this log's (or was altered).
 */
export async function checkChainHead(
  sql: SqlQueryable,
  position: bigint,
  chainHead: string,
): Promise<{ verifies: boolean; recomputed: string; stored: string; why?: 'log-altered' | 'not-this-log' }> {
  const recomputed = (await recomputeChainAt(sql, position)).hash;
  const stored = (await lastSeal(sql, position)).hash;
  if (recomputed === chainHead) return { verifies: true, recomputed, stored };
  return { verifies: false, recomputed, stored, why: stored === chainHead ? 'log-altered' : 'not-this-log' };
}

/** Records sealed hashes that are already known (a restore writes the verified hashes of its file). */
export async function storeSeals(
  sql: SqlQueryable,
  seals: ReadonlyArray<{ position: string; hash: string }>,
): Promise<void> {
  if (seals.length === 0) return;
  await sql.query(
    `INSERT INTO es.chain (global_position, hash)
     SELECT (x->>'position')::bigint, x->>'hash' FROM jsonb_array_elements($1::jsonb) AS x`,
    [JSON.stringify(seals.map(({ position, hash }) => ({ position, hash })))],
  );
}

/**
 * Recomputes the chain over the whole sealed log and compares it, event by event, with the
 * stored seals (after sealing what is final, unless options.seal is false). Reads in batches
 * and yields to the event loop between them, so a long log does not hold the process.
 */
export async function verifyChain(
  sql: SqlClient,
  options: VerifyChainOptions = {},
): Promise<ChainVerification> {
  const batchSize = options.batchSize ?? 2000;
  const startedAt = new Date().toISOString();
  if (options.seal !== false) await sealChain(sql);
  const sealedHead = (await lastSeal(sql)).position;
  const { rows: heads } = await sql.query<{ head: string | null; total: string; unsealed: string }>(
    `SELECT (SELECT max(global_position) FROM es.events)::text AS head,
            (SELECT count(*) FROM es.events WHERE global_position <= $1::bigint)::text AS total,
            (SELECT count(*) FROM es.events WHERE global_position > $1::bigint)::text AS unsealed`,
    [sealedHead.toString()],
  );
  const total = Number(heads[0]!.total);
  const report = (
    checked: number,
    intactUpTo: bigint,
    hash: string,
    broken?: ChainBreak,
  ): ChainVerification => ({
    status: broken ? 'broken' : 'intact',
    checked,
    total,
    intactUpTo: intactUpTo.toString(),
    chainHead: hash,
    sealedUpTo: sealedHead.toString(),
    head: heads[0]!.head ?? '0',
    unsealed: Number(heads[0]!.unsealed),
    startedAt,
    finishedAt: new Date().toISOString(),
    ...(broken ? { broken } : {}),
  });

  let after = 0n;
  let hash = CHAIN_GENESIS;
  let intactUpTo = 0n;
  let checked = 0;
  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('verification aborted');
    const events = await readChainedRows(sql, after, sealedHead, batchSize);
    const upper = events.length === batchSize ? BigInt(events.at(-1)!.position) : sealedHead;
    const { rows: seals } = await sql.query<{ position: string; hash: string }>(
      'SELECT global_position::text AS position, hash FROM es.chain WHERE global_position > $1::bigint AND global_position <= $2::bigint ORDER BY global_position',
      [after.toString(), upper.toString()],
    );
    let i = 0;
    let j = 0;
    while (i < events.length || j < seals.length) {
      const event = events[i];
      const seal = seals[j];
      const eventAt = event ? BigInt(event.position) : undefined;
      const sealAt = seal ? BigInt(seal.position) : undefined;
      if (seal && (eventAt === undefined || sealAt! < eventAt)) {
        // A sealed position with no event any more: an event was deleted (or moved).
        return report(checked, intactUpTo, hash, {
          position: seal.position,
          reason: 'missing',
          stored: seal.hash,
          recomputed: null,
        });
      }
      const recomputed = chainHash(hash, toChained(event!));
      const described = {
        type: event!.type,
        streamId: event!.stream_id,
        recordedAt: event!.metadata?.recordedAt ?? null,
      };
      if (!seal || eventAt! < sealAt!) {
        // An event below the sealed head that was never sealed: inserted behind the seal.
        return report(checked, intactUpTo, hash, {
          position: event!.position,
          reason: 'inserted',
          stored: null,
          recomputed,
          ...described,
        });
      }
      if (recomputed !== seal.hash)
        return report(checked, intactUpTo, hash, {
          position: event!.position,
          reason: 'altered',
          stored: seal.hash,
          recomputed,
          ...described,
        });
      hash = recomputed;
      intactUpTo = eventAt!;
      checked++;
      i++;
      j++;
    }
    options.onProgress?.({ checked, total, position: upper.toString() });
    if (upper >= sealedHead) return report(checked, intactUpTo, hash);
    after = upper;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

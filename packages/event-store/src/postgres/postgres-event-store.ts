import { randomUUID } from 'node:crypto';
import { runSqlMigrations, type SqlClient, type SqlQueryable } from '@bahi/sql-client';
import { pollingSubscription } from '../polling-subscription.ts';
import {
  type AppendOptions,
  type AppendResult,
  type BatchAppend,
  type ChainPoint,
  type ChainVerification,
  DuplicateEventIdError,
  type EventMetadata,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  type VerifyChainOptions,
  WrongExpectedVersionError,
} from '../types.ts';
import { Wakeup } from '../wakeup.ts';
import { eventStoreMigrations, MIGRATIONS_LOCK, NOTIFY_CHANNEL } from './schema.ts';
import { sealChain, sealedChainAt, verifyChain } from './seal.ts';

const NOTIFY_INTERVAL_MS = 10;

export interface PostgresEventStoreOptions {
  /** How often a live subscriber re-reads when no NOTIFY arrives. */
  pollIntervalMs?: number;
  /** Clock for metadata.recordedAt when the caller gives none. */
  now?: () => Date;
  /**
   * Seal this store's appends into the chain shortly after they commit (default true; see
   * docs/event-store.md, "The seal"). Off only for a benchmark's "before" figures.
   */
  seal?: boolean;
}

/** The least time between two seal passes of one process. */
const SEAL_INTERVAL_MS = 100;
const SEAL_RETRY_MS = [100, 100, 250, 500, 1000];

interface EventRow {
  position_text: string;
  id: string;
  stream_id: string;
  version_text: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  [key: string]: unknown;
}

// Exact int8 values travel as text (the two drivers parse int8 differently). The aliases
// differ from the column names so ORDER BY sorts the numbers, not their text.
const SELECT_EVENT = `SELECT global_position::text AS position_text, event_id::text AS id, stream_id,
  stream_version::text AS version_text, type, data, metadata FROM es.events`;

// Rows whose transaction id is below the oldest running transaction are final: nothing
// can commit before them any more (see the append function for why this suffices).
const VISIBLE = 'transaction_id < pg_snapshot_xmin(pg_current_snapshot())';

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    streamVersion: BigInt(row.version_text),
    position: BigInt(row.position_text),
  };
}

function expectedToSql(expected: ExpectedVersion): string {
  if (expected === 'no_stream') return '-1';
  if (expected === 'any') return '-2';
  if (expected < 0n) throw new RangeError(`Expected version must be >= 0, got ${expected}`);
  return expected.toString();
}

/** Applies the event store migrations once, serialised across processes. */
export function migrateEventStore(sql: SqlClient): Promise<void> {
  return runSqlMigrations(sql, { schema: 'es', lockKey: MIGRATIONS_LOCK, migrations: eventStoreMigrations });
}

/**
 * The event store on Postgres: the same SQL on node-postgres and on PGlite. Create it with
 * createPostgresEventStore, which migrates first.
 */
export class PostgresEventStore implements EventStore {
  readonly kind: 'postgres' | 'pglite';
  readonly #sql: SqlClient;
  readonly #wakeup = new Wakeup();
  readonly #pollIntervalMs: number;
  readonly #now: () => Date;
  #unlisten: Promise<() => Promise<void>> | undefined;
  readonly #reads = new Map<string, { wakeups: number; rows: Promise<EventRow[]> }>();
  #notifyTimer: NodeJS.Timeout | undefined;
  #lastNotifyAt = 0;
  readonly #seal: boolean;
  #sealing: Promise<void> | undefined;
  #sealAgain = false;
  #sealTimer: NodeJS.Timeout | undefined;
  #sealRetries = 0;
  #lastSealAt = 0;
  #closed = false;

  constructor(sql: SqlClient, options: PostgresEventStoreOptions = {}) {
    this.#sql = sql;
    this.kind = sql.kind;
    this.#pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#now = options.now ?? (() => new Date());
    this.#seal = options.seal ?? true;
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedVersion,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const { result, written } = await appendWith(
      options.via ?? this.#sql,
      streamId,
      events,
      expected,
      this.#now,
    );
    if (written) this.#afterCommit();
    return result;
  }

  async appendBatch(appends: readonly BatchAppend[], options: AppendOptions = {}): Promise<AppendResult[]> {
    if (appends.length === 0) return [];
    const results = options.via
      ? await appendBatchWith(options.via, appends, this.#now)
      : await this.#sql.transaction((tx) => appendBatchWith(tx, appends, this.#now));
    this.#afterCommit();
    return results;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const { rows } = await this.#sql.query<EventRow>(
      `${SELECT_EVENT} WHERE stream_id = $1 AND stream_version >= $2::bigint ORDER BY stream_version LIMIT $3`,
      [streamId, (options.fromVersion ?? 0n).toString(), options.maxCount ?? 2_147_483_647],
    );
    return rows.map(toRecorded);
  }

  /**
   * Every projection has a subscription of its own, and a wake-up sends them all to read the
   * same page at once: a read asked for while the same read is under way, with no wake-up
   * since it started, shares that read (one query instead of ten per commit;
   * bench/command-mix). A wake-up after it started means a commit it may have missed: the
   * caller then reads anew, so a subscriber never waits for a poll to see a commit it was
   * woken for. Each sharer gets its own copy of the events' data.
   */
  readAll(afterPosition: bigint, limit: number): Promise<RecordedEvent[]> {
    const key = `${afterPosition}/${limit}`;
    const wakeups = this.#wakeup.count;
    const under = this.#reads.get(key);
    if (under && under.wakeups === wakeups) {
      // These reactions all run before the first reader's own code resumes: the copies are
      // made from rows nobody has touched yet.
      return under.rows.then((rows) =>
        rows.map((row) =>
          toRecorded({ ...row, data: structuredClone(row.data), metadata: structuredClone(row.metadata) }),
        ),
      );
    }
    const rows = readAllRows(this.#sql, afterPosition, limit);
    const entry = { wakeups, rows };
    this.#reads.set(key, entry);
    const done = () => {
      if (this.#reads.get(key) === entry) this.#reads.delete(key);
    };
    rows.then(done, done);
    return rows.then((r) => r.map(toRecorded));
  }

  subscribe(afterPosition: bigint, options: SubscribeOptions = {}): Subscription {
    return pollingSubscription(
      {
        readAll: (after, limit) => this.readAll(after, limit),
        wakeup: this.#wakeup,
        pollIntervalMs: this.#pollIntervalMs,
        start: () => this.#listen(),
      },
      afterPosition,
      options,
    );
  }

  async headPosition(): Promise<bigint> {
    const { rows } = await this.#sql.query<{ position: string }>(
      // Committed, not the xmin-safe frontier: "everything written before now" is what a
      // read-your-writes wait and a lag figure need; subscribers pass it once older
      // transactions end.
      'SELECT global_position::text AS position FROM es.events ORDER BY global_position DESC LIMIT 1',
    );
    return rows[0] ? BigInt(rows[0].position) : 0n;
  }

  async eventTypesBetween(afterPosition: bigint, upToPosition: bigint): Promise<string[] | undefined> {
    if (upToPosition <= afterPosition) return [];
    // One snapshot: when the event at upToPosition is below the oldest running transaction,
    // every transaction holding a lower position has finished (see the append function), so
    // the stretch is complete in this snapshot.
    const { rows } = await this.#sql.query<{ final: boolean | null; types: string[] }>(
      `SELECT (SELECT ${VISIBLE} FROM es.events WHERE global_position = $2::bigint) AS final,
              ARRAY(SELECT DISTINCT type FROM es.events
                     WHERE global_position > $1::bigint AND global_position <= $2::bigint) AS types`,
      [afterPosition.toString(), upToPosition.toString()],
    );
    const row = rows[0];
    return row?.final === true ? row.types : undefined;
  }

  chainHeadAt(position: bigint, waitMs?: number): Promise<ChainPoint | undefined> {
    return sealedChainAt(this.#sql, position, waitMs);
  }

  verifyChain(options?: VerifyChainOptions): Promise<ChainVerification> {
    return verifyChain(this.#sql, options);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#sealTimer);
    this.#sealTimer = undefined;
    await this.#sealing;
    clearTimeout(this.#notifyTimer);
    this.#notifyTimer = undefined;
    if (this.#unlisten) await (await this.#unlisten)();
    this.#unlisten = undefined;
  }

  /** Subscribers in this process wake at once; other processes through a coalesced NOTIFY. */
  #afterCommit(): void {
    this.#wakeup.signal();
    if (this.#sql.kind !== 'pglite') this.#notifyOtherProcesses(); // one process owns an embedded database
    if (this.#seal) this.#sealSoon();
  }

  // The seal runs beside the appends, never inside one, at most one pass per SEAL_INTERVAL_MS
  // in this process (a pass seals everything final, so commits in between cost one pass, not
  // one each); while events above the sealed head are not final yet (an older transaction still
  // open) it tries again, less and less often.
  #sealSoon(): void {
    if (this.#closed) return;
    if (this.#sealing) {
      this.#sealAgain = true;
      return;
    }
    if (this.#sealTimer) return; // a pass is already due
    const wait = Math.max(0, this.#lastSealAt + SEAL_INTERVAL_MS - Date.now());
    this.#sealTimer = setTimeout(() => this.#runSeal(), wait);
    this.#sealTimer.unref();
  }

  #runSeal(): void {
    this.#sealTimer = undefined;
    if (this.#closed) return;
    this.#lastSealAt = Date.now();
    this.#sealAgain = false;
    this.#sealing = sealChain(this.#sql)
      .then(
        ({ pending }) => {
          this.#sealRetries = pending ? this.#sealRetries + 1 : 0;
          return pending;
        },
        () => {
          this.#sealRetries++;
          return true; // the database was busy or away: try again later
        },
      )
      .then((retry) => {
        this.#sealing = undefined;
        if (this.#closed) return;
        if (this.#sealAgain) this.#sealSoon();
        else if (retry) {
          const wait = SEAL_RETRY_MS[Math.min(this.#sealRetries, SEAL_RETRY_MS.length) - 1] ?? 20;
          this.#sealTimer = setTimeout(() => this.#runSeal(), wait);
          this.#sealTimer.unref();
        }
      });
  }

  // NOTIFY inside the append would take Postgres' global notify lock through the commit
  // and serialise every writer. Sent afterwards it is a commit of its own, so it is
  // throttled: at most one per NOTIFY_INTERVAL_MS, always sent after the commits it covers.
  #notifyOtherProcesses(): void {
    if (this.#notifyTimer) return; // a pending NOTIFY will go out after this commit
    const wait = Math.max(0, this.#lastNotifyAt + NOTIFY_INTERVAL_MS - Date.now());
    this.#notifyTimer = setTimeout(() => {
      this.#notifyTimer = undefined;
      this.#lastNotifyAt = Date.now();
      void this.#sql.query('SELECT pg_notify($1, $2)', [NOTIFY_CHANNEL, '']).catch(() => {}); // subscribers poll as a fallback
    }, wait);
    this.#notifyTimer.unref();
  }

  #listen(): Promise<void> {
    if (this.#sql.kind === 'pglite') return Promise.resolve();
    this.#unlisten ??= this.#sql.listen(NOTIFY_CHANNEL, () => this.#wakeup.signal());
    return this.#unlisten.then(
      () => undefined,
      () => {
        this.#unlisten = undefined; // polling still works; try LISTEN again next time
      },
    );
  }
}

/**
 * A stream's events read on a connection right after it takes a session-level shared advisory
 * lock on `lock` (hashtextextended(lock, 0), as pg_advisory_lock_shared takes it), in one round
 * trip (es.read_stream_after_shared_lock): the read sees everything committed before the lock
 * was granted. The lock stays with the connection until it is unlocked.
 */
export async function readStreamAfterSharedLock(
  sql: SqlQueryable,
  lock: string,
  streamId: string,
  options: Pick<ReadStreamOptions, 'fromVersion'> = {},
): Promise<RecordedEvent[]> {
  const { rows } = await sql.query<EventRow>(
    'SELECT * FROM es.read_stream_after_shared_lock($1, $2, $3::bigint)',
    [lock, streamId, (options.fromVersion ?? 0n).toString()],
  );
  return rows.map(toRecorded);
}

/** The events as es.append takes them: ids, and the metadata every stored event carries. */
export function toPayload(events: readonly NewEvent[], recordedAt: string) {
  return events.map((event) => ({
    id: event.id ?? randomUUID(),
    type: event.type,
    data: event.data ?? null,
    metadata: {
      userId: null,
      causationId: null,
      ...event.metadata,
      correlationId: event.metadata?.correlationId ?? randomUUID(),
      recordedAt: event.metadata?.recordedAt ?? recordedAt,
    },
  }));
}

/**
 * The append itself, on any connection: the store's pool, or a transaction the caller
 * holds open (then nothing is visible to readers of $all until the caller commits).
 */
export async function appendWith(
  sql: SqlQueryable,
  streamId: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
  now: () => Date = () => new Date(),
): Promise<{ result: AppendResult; written: boolean }> {
  if (events.length === 0) throw new RangeError('append needs at least one event');
  const payload = toPayload(events, now().toISOString());
  let rows: Array<{ out_status: string; out_version: string | null; out_position: string | null }>;
  try {
    ({ rows } = await sql.query(
      'SELECT out_status, out_version::text AS out_version, out_position::text AS out_position FROM es.append($1, $2::bigint, $3::jsonb)',
      [streamId, expectedToSql(expected), JSON.stringify(payload)],
    ));
  } catch (error) {
    // Two appends of the same event id to different streams at once: the loser lands here.
    if ((error as { constraint?: string }).constraint === 'events_event_id_key') {
      throw new DuplicateEventIdError(
        streamId,
        payload.map((p) => p.id),
      );
    }
    throw error;
  }
  const row = rows[0];
  if (!row) throw new Error('es.append returned no row');
  switch (row.out_status) {
    case 'ok':
    case 'duplicate':
      return {
        result: { nextExpectedVersion: BigInt(row.out_version!), position: BigInt(row.out_position!) },
        written: row.out_status === 'ok',
      };
    case 'wrong_expected_version':
      throw new WrongExpectedVersionError(
        streamId,
        expected,
        row.out_version === null ? 'no_stream' : BigInt(row.out_version),
      );
    case 'duplicate_elsewhere':
      throw new DuplicateEventIdError(
        streamId,
        payload.map((p) => p.id),
      );
    default:
      throw new Error(`es.append answered an unknown status ${row.out_status}`);
  }
}

/**
 * Every append of a batch in one statement, es.append once per stream in the order given (the
 * function scan of the arrays yields them in order; the positions are checked to rise), inside
 * the caller's transaction: a failed one throws, and the caller's rollback undoes the others.
 */
async function appendBatchWith(
  sql: SqlQueryable,
  appends: readonly BatchAppend[],
  now: () => Date,
): Promise<AppendResult[]> {
  const recordedAt = now().toISOString();
  const payloads = appends.map(({ events }) => {
    if (events.length === 0) throw new RangeError('append needs at least one event');
    return toPayload(events, recordedAt);
  });
  const { rows } = await sql.query<{
    out_status: string;
    out_version: string | null;
    out_position: string | null;
  }>(
    `SELECT r.out_status, r.out_version::text AS out_version, r.out_position::text AS out_position
       FROM unnest($1::text[], $2::bigint[], $3::jsonb[]) WITH ORDINALITY AS u(stream_id, expected, events, n)
      CROSS JOIN LATERAL es.append(u.stream_id, u.expected, u.events) AS r
      ORDER BY u.n`,
    [
      appends.map((a) => a.streamId),
      appends.map((a) => expectedToSql(a.expected)),
      payloads.map((p) => JSON.stringify(p)),
    ],
  );
  let previous = 0n;
  return rows.map((row, index) => {
    const append = appends[index]!;
    if (row.out_status !== 'ok') {
      if (row.out_status === 'wrong_expected_version')
        throw new WrongExpectedVersionError(
          append.streamId,
          append.expected,
          row.out_version === null ? 'no_stream' : BigInt(row.out_version),
        );
      throw new DuplicateEventIdError(
        append.streamId,
        payloads[index]!.map((p) => p.id),
      );
    }
    const position = BigInt(row.out_position!);
    if (position <= previous) throw new Error('appendBatch: the appends took positions out of their order');
    previous = position;
    return { nextExpectedVersion: BigInt(row.out_version!), position };
  });
}

export async function readAllWith(sql: SqlQueryable, afterPosition: bigint, limit: number) {
  return (await readAllRows(sql, afterPosition, limit)).map(toRecorded);
}

async function readAllRows(sql: SqlQueryable, afterPosition: bigint, limit: number) {
  const { rows } = await sql.query<EventRow>(
    `${SELECT_EVENT} WHERE global_position > $1::bigint AND ${VISIBLE} ORDER BY global_position LIMIT $2`,
    [afterPosition.toString(), limit],
  );
  return rows;
}

export async function createPostgresEventStore(
  sql: SqlClient,
  options: PostgresEventStoreOptions = {},
): Promise<PostgresEventStore> {
  await migrateEventStore(sql);
  return new PostgresEventStore(sql, options);
}

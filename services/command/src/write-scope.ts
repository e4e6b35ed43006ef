import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { conflict } from '@bahi/domain';
import {
  type EventStore,
  PostgresEventStore,
  type RecordedEvent,
  readStreamAfterSharedLock,
} from '@bahi/event-store';
import { HttpError } from '@bahi/server-kit';
import type { SqlClient, SqlQueryable, SqlSession } from '@bahi/sql-client';

/**
 * What one write request holds while it runs (docs/decisions.md, "Exactly once" and
 * "Cross-record rules"):
 * - locks, released together when the request ends: a shared lock on every master the
 *   request reads (requireActive), an exclusive one where a master is deleted or moved to
 *   another city, and the Idempotency-Key's own lock;
 * - with an Idempotency-Key, a nonce from which the request's record ids and event ids are
 *   derived, so that a retry after a crash can find what the first attempt appended.
 */
export interface WriteScope {
  locks: RequestLocks;
  keyed?: KeyedWrite;
  /** Something was appended in this request: a failed answer must not forget the key. */
  appended: boolean;
}

export interface KeyedWrite {
  nonce: string;
  /** A retry of an attempt that never answered: execute first looks for each step's events. */
  recovering: boolean;
  /** The key's first attempt (not a retry). */
  fresh: boolean;
  /** Counters that make the n-th step's event ids and the n-th record id the same on a retry. */
  steps: number;
  ids: number;
}

export interface RequestLocks {
  shared(name: string): Promise<void>;
  exclusive(name: string): Promise<void>;
  /** Takes the lock unless another request holds it (true), without waiting. */
  tryExclusive(name: string): Promise<boolean>;
  /**
   * Postgres: tryExclusive and, only when it took the lock, an INSERT ... ON CONFLICT DO NOTHING
   * of one row right after it, on the lock's connection, in one round trip: undefined when
   * another request holds the lock, else whether the row went in.
   */
  tryExclusiveThenInsert?(
    name: string,
    insert: {
      table: string;
      columns: ReadonlyArray<readonly [name: string, type: string]>;
      conflict: string;
    },
    values: readonly unknown[],
  ): Promise<boolean | undefined>;
  /**
   * Takes the lock shared, then reads the stream: what it reads is as it stands once the lock is
   * held. On Postgres both in one round trip, on the connection that holds the locks.
   */
  sharedThenRead(name: string, store: EventStore, streamId: string): Promise<RecordedEvent[]>;
  /** The connection holding the locks (Postgres), once one is held: a keyed request appends on it. */
  readonly connection: SqlQueryable | undefined;
  release(): Promise<void>;
}

export const writeScopes = new AsyncLocalStorage<WriteScope>();

/** A UUID (version 4 layout) derived from a nonce and a label: the same on every attempt. */
export function derivedUuid(nonce: string, label: string): string {
  const h = createHash('sha256').update(`${nonce}\n${label}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** The id of a new record: derived from the Idempotency-Key's nonce when there is one. */
export function newRecordId(): string {
  const keyed = writeScopes.getStore()?.keyed;
  return keyed ? derivedUuid(keyed.nonce, `record:${keyed.ids++}`) : randomUUID();
}

/**
 * A stream read under a shared lock held until the request ends (outside a write scope, a dry
 * run say: read without one).
 */
export async function readHoldingShared(
  store: EventStore,
  name: string,
  streamId: string,
): Promise<RecordedEvent[]> {
  const locks = writeScopes.getStore()?.locks;
  return locks ? locks.sharedThenRead(name, store, streamId) : store.readStream(streamId);
}

/** Held until the request ends: no request that read this master is between its read and its append. */
export async function holdExclusive(name: string): Promise<void> {
  await writeScopes.getStore()?.locks.exclusive(name);
}

export const masterLock = (id: string) => `master:${id.toLowerCase()}`;

/** How long a request waits for a lock before it answers 409 (on Postgres: the session pool's lock_timeout). */
export const LOCK_WAIT_MS = 5_000;

const BUSY = 'Someone else changed this record at the same moment. Please try again.';

export interface LockManager {
  open(): RequestLocks;
}

/**
 * Several processes on Postgres: session-level advisory locks on a connection the request holds
 * (from a pool apart from the queries' pool). A process that dies drops its connection and, with
 * it, its locks - but only once the statement its backend is running has finished.
 */
export function postgresLocks(sql: SqlClient): LockManager {
  const openSession = sql.openSession?.bind(sql);
  if (!openSession) throw new Error('postgresLocks needs a SQL client with sessions');
  return {
    open() {
      let session: SqlSession | undefined;
      let opening: Promise<SqlSession> | undefined;
      const held = async () => {
        if (session) return session;
        opening ??= openSession().then(
          (s) => {
            session = s;
            return s;
          },
          (error: Error) => {
            // Every session of this process busy for the pool's wait: too many writes at once.
            if (/timeout exceeded when trying to connect/.test(error.message))
              throw new HttpError(503, 'The server is busy right now. Please try again in a moment.');
            throw error;
          },
        );
        return opening;
      };
      // The session pool's lock_timeout, or a deadlock Postgres broke: this request answers
      // 409 and may be sent again; the other one goes on.
      const busy = (error: unknown) => {
        const code = (error as { code?: string }).code;
        return code === '55P03' || code === '40P01' ? conflict(BUSY) : error;
      };
      const lock = async (statement: string, name: string) => {
        const s = await held();
        try {
          const { rows } = await s.query<{ ok: boolean }>(statement, [`bahi.${name}`]);
          return rows[0]?.ok === true;
        } catch (error) {
          throw busy(error);
        }
      };
      const key = 'hashtextextended($1, 0)';
      const shared = async (name: string) =>
        void (await lock(`SELECT true AS ok, pg_advisory_lock_shared(${key})`, name));
      return {
        get connection() {
          return session;
        },
        shared,
        async sharedThenRead(name, store, streamId) {
          // Only the Postgres store reads on this database; any other store: lock, then read.
          if (!(store instanceof PostgresEventStore)) {
            await shared(name);
            return store.readStream(streamId);
          }
          const s = await held();
          try {
            return await readStreamAfterSharedLock(s, `bahi.${name}`, streamId);
          } catch (error) {
            throw busy(error);
          }
        },
        exclusive: async (name) => void (await lock(`SELECT true AS ok, pg_advisory_lock(${key})`, name)),
        tryExclusive: (name) => lock(`SELECT pg_try_advisory_lock(${key}) AS ok`, name),
        async tryExclusiveThenInsert(name, { table, columns, conflict }, values) {
          const s = await held();
          // The lock first (a materialized CTE runs once, before the INSERT that reads it), the
          // row only if the lock was taken.
          const { rows } = await s.query<{ locked: boolean; inserted: boolean }>(
            `WITH lock AS MATERIALIZED (SELECT pg_try_advisory_lock(${key}) AS ok),
                  inserted AS (
                    INSERT INTO ${table} (${columns.map(([c]) => c).join(', ')})
                    SELECT ${columns.map(([, type], i) => `$${i + 2}::${type}`).join(', ')} FROM lock WHERE lock.ok
                    ON CONFLICT (${conflict}) DO NOTHING RETURNING 1)
             SELECT lock.ok AS locked, EXISTS (SELECT 1 FROM inserted) AS inserted FROM lock`,
            [`bahi.${name}`, ...values],
          );
          const row = rows[0];
          return row?.locked === true ? row.inserted : undefined;
        },
        async release() {
          const s = session ?? (opening ? await opening.catch(() => undefined) : undefined);
          session = undefined;
          opening = undefined;
          if (!s) return;
          try {
            await s.query('SELECT pg_advisory_unlock_all()');
            s.release();
          } catch (error) {
            s.release(error as Error); // closed: its backend lets the locks go as it exits
          }
        },
      };
    },
  };
}

interface LocalLock {
  shared: Map<object, number>;
  exclusive: object | undefined;
  waiters: Set<() => void>;
}

/**
 * One process (the standalone on PGlite): the same locks in memory. A crash ends the process
 * and every request in it, so nothing outlives its holder.
 */
export function localLocks(): LockManager {
  const table = new Map<string, LocalLock>();
  const entry = (name: string) => {
    let e = table.get(name);
    if (!e) {
      e = { shared: new Map(), exclusive: undefined, waiters: new Set() };
      table.set(name, e);
    }
    return e;
  };
  const free = (e: LocalLock, owner: object, mode: 'shared' | 'exclusive') =>
    (e.exclusive === undefined || e.exclusive === owner) &&
    (mode === 'shared' || [...e.shared.keys()].every((o) => o === owner));
  const take = (e: LocalLock, owner: object, mode: 'shared' | 'exclusive') => {
    if (mode === 'exclusive') e.exclusive = owner;
    else e.shared.set(owner, (e.shared.get(owner) ?? 0) + 1);
  };
  return {
    open() {
      const owner = {};
      const names = new Set<string>();
      const acquire = async (name: string, mode: 'shared' | 'exclusive', wait: boolean) => {
        const e = entry(name);
        if (!free(e, owner, mode)) {
          if (!wait) return false;
          const deadline = Date.now() + LOCK_WAIT_MS;
          while (!free(e, owner, mode)) {
            const left = deadline - Date.now();
            if (left <= 0) throw conflict(BUSY);
            await new Promise<void>((resolve) => {
              const wake = () => {
                clearTimeout(timer);
                e.waiters.delete(wake);
                resolve();
              };
              const timer = setTimeout(wake, left);
              e.waiters.add(wake);
            });
          }
        }
        take(e, owner, mode);
        names.add(name);
        return true;
      };
      const shared = async (name: string) => void (await acquire(name, 'shared', true));
      return {
        connection: undefined,
        shared,
        async sharedThenRead(name, store, streamId) {
          await shared(name);
          return store.readStream(streamId);
        },
        exclusive: async (name) => void (await acquire(name, 'exclusive', true)),
        tryExclusive: (name) => acquire(name, 'exclusive', false),
        async release() {
          for (const name of names) {
            const e = table.get(name);
            if (!e) continue;
            e.shared.delete(owner);
            if (e.exclusive === owner) e.exclusive = undefined;
            for (const wake of [...e.waiters]) wake();
            if (e.shared.size === 0 && e.exclusive === undefined && e.waiters.size === 0) table.delete(name);
          }
          names.clear();
        },
      };
    },
  };
}

export function lockManagerFor(sql: SqlClient): LockManager {
  return sql.kind === 'pglite' ? localLocks() : postgresLocks(sql);
}

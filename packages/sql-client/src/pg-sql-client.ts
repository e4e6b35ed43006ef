import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { isCopyFromStdin, type SqlClient, type SqlQueryable, type SqlRow } from './sql-client.ts';

export interface PgSqlClientOptions {
  connectionString: string;
  max?: number;
  applicationName?: string;
  /**
   * Run a SELECT seen before as a named statement (see PreparedStatements): for a process that
   * answers the same reads over and over, the query service. A rebuild gains nothing by it
   * (its reads vary, and each batch switches the search path): off by default.
   */
  namedReads?: boolean;
  /** Most sessions (openSession) held at once; the main pool's size when absent. */
  maxSessions?: number;
}

export function createPgSqlClient(options: PgSqlClientOptions): SqlClient {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'bahi',
    // Short queries only: Postgres' JIT compiled the dashboard's 30-day query on every call
    // (~280 ms to save nothing; bench/queries, docs/benchmarks.md).
    options: '-c jit=off',
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  keepOnConnectionLoss(pool);
  const listeners: Listeners = new Map();

  const statements = new PreparedStatements(options.namedReads ? PreparedStatements.MAX_NAMED : 0);
  const query = async <R extends SqlRow>(sql: string, params: readonly unknown[] = []) => {
    const result = await statements.run(pool, sql, params);
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
  };
  const wrap = (client: pg.PoolClient): SqlQueryable => ({
    query: async <R extends SqlRow>(sql: string, params: readonly unknown[] = []) => {
      const result = await statements.run(client, sql, params);
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
    exec: async (sql: string) => {
      await client.query(sql); // no parameters: the simple protocol runs several statements
    },
    copyIn: (sql: string, data: string) => copyIn(client, sql, data),
  });

  let sessions: pg.Pool | undefined;

  return {
    kind: 'postgres',
    query,
    async openSession() {
      if (!sessions) {
        sessions = new pg.Pool({
          connectionString: options.connectionString,
          max: options.maxSessions ?? options.max ?? 10,
          application_name: `${options.applicationName ?? 'bahi'}-sessions`,
          // Sessions hold advisory locks: a wait for one is bounded (Postgres error 55P03).
          options: '-c jit=off -c lock_timeout=5s',
          // Every session busy for this long: answer (a 503 up the stack) rather than queue on.
          connectionTimeoutMillis: 10_000,
        });
        sessions.on('error', () => {});
        keepOnConnectionLoss(sessions);
      }
      const client = await sessions.connect();
      return { ...wrap(client), release: (broken?: Error) => client.release(broken) };
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    async copyIn(sql, data) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await copyIn(client, sql, data);
      } catch (error) {
        broken = error as Error;
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async withConnection(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        return await fn(wrap(client));
      } catch (error) {
        broken = error instanceof Error ? error : new Error(String(error));
        throw error;
      } finally {
        // A client whose session state is unknown after an error is discarded, not reused.
        client.release(broken);
      }
    },
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError as Error;
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },
    listen: (channel, onNotify) => listenOn(listeners, options.connectionString, channel, onNotify),
    async close() {
      for (const { client } of listeners.values()) await client.end().catch(() => {});
      listeners.clear();
      await sessions?.end();
      await pool.end();
    },
  };
}

/**
 * A client checked out of a pool (a session held by a write, a transaction) has no error
 * listener of pg-pool's: when Postgres restarts, its connection's end is emitted as an 'error'
 * nobody handles, and the process dies ("Connection terminated unexpectedly"; every command copy
 * at once in `npm run test:compose`). The loss is the holder's to see, as its query's error; the
 * client is then released as broken and the pool makes a new one.
 */
function keepOnConnectionLoss(pool: pg.Pool) {
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
}

type Listeners = Map<string, { client: pg.Client; callbacks: Set<(payload: string) => void> }>;

/** LISTEN on one connection per channel, shared by its callbacks; the last one's removal ends it. */
async function listenOn(
  listeners: Listeners,
  connectionString: string,
  channel: string,
  onNotify: (payload: string) => void,
): Promise<() => Promise<void>> {
  let entry = listeners.get(channel);
  if (!entry) {
    const client = new pg.Client({ connectionString });
    client.on('error', () => {});
    await client.connect();
    const callbacks = new Set<(payload: string) => void>();
    client.on('notification', (message) => {
      if (message.channel === channel) for (const cb of callbacks) cb(message.payload ?? '');
    });
    await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    entry = { client, callbacks };
    listeners.set(channel, entry);
  }
  entry.callbacks.add(onNotify);
  const current = entry;
  return async () => {
    current.callbacks.delete(onNotify);
    if (current.callbacks.size === 0 && listeners.get(channel) === current) {
      listeners.delete(channel);
      await current.client.end().catch(() => {});
    }
  };
}

function copyIn(client: pg.PoolClient, sql: string, data: string): Promise<void> {
  if (!isCopyFromStdin(sql)) throw new Error(`copyIn: not a COPY ... FROM STDIN: ${sql}`);
  return pipeline(Readable.from([data]), client.query(copyFrom(sql)));
}

/**
 * Reads that repeat run as named (prepared) statements: Postgres parses and plans them once
 * per connection instead of on every call. Planning a list page's query (a few joins over
 * tables with several partial indexes) cost ~0.9 ms of Postgres CPU, many times its execution
 * (pgbench on the large seed: 2,000 calls/s unprepared, 17,800 prepared; docs/benchmarks.md).
 *
 * Only SELECT and WITH statements seen twice are named, at most MAX_NAMED per process, so
 * one-off statements and lists of varying length do not pile up in every backend. A named
 * statement whose tables changed shape under it (a migration run by another process) fails
 * with "cached plan must not change result type": that text then runs unnamed from then on.
 */
class PreparedStatements {
  static readonly MAX_NAMED = 500;
  static readonly MAX_SEEN = 5_000;
  constructor(private readonly maxNamed: number) {}
  readonly #named = new Map<string, string>();
  readonly #seen = new Set<string>();
  readonly #never = new Set<string>();

  #nameOf(sql: string): string | undefined {
    const known = this.#named.get(sql);
    if (known) return known;
    if (this.#named.size >= this.maxNamed || this.#never.has(sql)) return undefined;
    if (!/^\s*(select|with)\s/i.test(sql) || sql.length > 20_000) return undefined;
    if (!this.#seen.has(sql)) {
      if (this.#seen.size >= PreparedStatements.MAX_SEEN) this.#seen.clear();
      this.#seen.add(sql);
      return undefined;
    }
    const name = `bahi_${this.#named.size + 1}`;
    this.#named.set(sql, name);
    return name;
  }

  async run(on: pg.Pool | pg.PoolClient, sql: string, params: readonly unknown[]) {
    const name = this.#nameOf(sql);
    if (!name) return on.query(sql, params as unknown[]);
    try {
      return await on.query({ name, text: sql, values: params as unknown[] });
    } catch (error) {
      if (!/cached plan must not change result type/.test((error as Error).message)) throw error;
      this.#named.delete(sql);
      this.#never.add(sql);
      try {
        return await on.query(sql, params as unknown[]);
      } catch (retryError) {
        // Inside a transaction the failure aborted it: the first error is the one to report.
        if ((retryError as { code?: string }).code === '25P02') throw error;
        throw retryError;
      }
    }
  }
}

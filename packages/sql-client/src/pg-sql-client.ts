import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { SqlClient, SqlQueryable, SqlRow } from './sql-client.ts';

export interface PgSqlClientOptions {
  connectionString: string;
  max?: number;
  applicationName?: string;
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
  const listeners = new Map<string, { client: pg.Client; callbacks: Set<(payload: string) => void> }>();

  const query = async <R extends SqlRow>(sql: string, params: readonly unknown[] = []) => {
    const result = await pool.query(sql, params as unknown[]);
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
  };
  const wrap = (client: pg.PoolClient): SqlQueryable => ({
    query: async <R extends SqlRow>(sql: string, params: readonly unknown[] = []) => {
      const result = await client.query(sql, params as unknown[]);
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
    exec: async (sql: string) => {
      await client.query(sql); // no parameters: the simple protocol runs several statements
    },
    copyIn: (sql: string, data: string) => copyIn(client, sql, data),
  });

  return {
    kind: 'postgres',
    query,
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
    async listen(channel, onNotify) {
      let entry = listeners.get(channel);
      if (!entry) {
        const client = new pg.Client({ connectionString: options.connectionString });
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
    },
    async close() {
      for (const { client } of listeners.values()) await client.end().catch(() => {});
      listeners.clear();
      await pool.end();
    },
  };
}

function copyIn(client: pg.PoolClient, sql: string, data: string): Promise<void> {
  if (!/^COPY\s.+\sFROM STDIN$/s.test(sql)) throw new Error(`copyIn: not a COPY ... FROM STDIN: ${sql}`);
  return pipeline(Readable.from([data]), client.query(copyFrom(sql)));
}

/**
 * The one SQL surface the event store and the read database are written against, so the
 * same SQL runs on node-postgres (distributed mode) and on embedded PGlite (standalone).
 * Rows come back as plain objects; cast int8/numeric to text in SQL where exactness
 * matters, because the two drivers parse them differently.
 */
export type SqlRow = Record<string, unknown>;

export interface SqlResult<R> {
  rows: R[];
  /** Rows inserted, updated or deleted by the statement, when the driver tells. */
  rowCount?: number;
}

export interface SqlQueryable {
  query<R extends SqlRow = SqlRow>(sql: string, params?: readonly unknown[]): Promise<SqlResult<R>>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `COPY <table> (<columns>) FROM STDIN` with `data` in COPY's text format: the
   * cheapest way to load many rows (Postgres parses no JSON and no statement per row).
   */
  copyIn(sql: string, data: string): Promise<void>;
}

/** A connection held by its caller until `release`: what session-level advisory locks need. */
export interface SqlSession extends SqlQueryable {
  /** Back to the pool; with an error the connection is closed instead (its state is unknown). */
  release(broken?: Error): void;
}

export interface SqlClient extends SqlQueryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs fn on one connection inside BEGIN/COMMIT; ROLLBACK when it throws. */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Runs fn with one connection held exclusively, outside any transaction (session-level work). */
  withConnection<T>(fn: (conn: SqlQueryable) => Promise<T>): Promise<T>;
  /**
   * A connection of its own, from a pool apart from the one queries use, held until released:
   * a caller that holds one while its work queries through the main pool can never take the
   * main pool's last connection from itself. Not on PGlite (its one connection is shared by all).
   */
  openSession?(): Promise<SqlSession>;
  /** Subscribes to a NOTIFY channel; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const COPY_FROM_STDIN = /^COPY\s.+\sFROM STDIN$/s;

/** `COPY <table> (<columns>) FROM STDIN`: what `copyIn` runs (and the read database routes to it). */
export const isCopyFromStdin = (sql: string): boolean => COPY_FROM_STDIN.test(sql);

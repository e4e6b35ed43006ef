import { isCopyFromStdin, type SqlClient, type SqlQueryable } from '@bahi/sql-client';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';

class HeldConnection implements DatabaseConnection {
  constructor(
    private readonly connection: SqlQueryable,
    readonly release: () => void,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (isCopyFromStdin(compiled.sql)) {
      // A COPY the projector sends (insertRows): its one parameter is the data, which goes by
      // COPY's own protocol.
      const [data] = compiled.parameters;
      if (compiled.parameters.length !== 1 || typeof data !== 'string')
        throw new Error('COPY ... FROM STDIN takes its data as the one parameter');
      await this.connection.copyIn(compiled.sql, data);
      return { rows: [] };
    }
    const result = await this.connection.query(compiled.sql, compiled.parameters);
    return {
      rows: result.rows as R[],
      ...(result.rowCount === undefined ? {} : { numAffectedRows: BigInt(result.rowCount) }),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by this driver
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the Bahi SQL client');
  }
}

/**
 * Kysely on our SqlClient, so read models run on node-postgres and on PGlite through the
 * same connection handling (on PGlite, a kysely transaction holds the one connection).
 */
class SqlClientDriver implements Driver {
  constructor(private readonly sql: SqlClient) {}

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    return new Promise((resolve, reject) => {
      this.sql
        .withConnection(
          (connection) =>
            new Promise<void>((release) => {
              resolve(new HeldConnection(connection, release));
            }),
        )
        .catch(reject);
    });
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as HeldConnection).executeQuery({
      sql: 'BEGIN',
      parameters: [],
    } as unknown as CompiledQuery);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as HeldConnection).executeQuery({
      sql: 'COMMIT',
      parameters: [],
    } as unknown as CompiledQuery);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as HeldConnection).executeQuery({
      sql: 'ROLLBACK',
      parameters: [],
    } as unknown as CompiledQuery);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as HeldConnection).release();
  }

  async destroy(): Promise<void> {}
}

export function sqlClientDialect(sql: SqlClient): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new SqlClientDriver(sql),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

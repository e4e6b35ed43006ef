export { runSqlMigrations, type SqlMigration } from './migrations.ts';
export { Mutex } from './mutex.ts';
export { createPgSqlClient } from './pg-sql-client.ts';
export { createPgliteSqlClient } from './pglite-sql-client.ts';
export type { SqlClient, SqlQueryable, SqlResult, SqlRow } from './sql-client.ts';

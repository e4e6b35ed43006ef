export { runSqlMigrations, type SqlMigration } from './migrations.ts';
export { Mutex } from './mutex.ts';
export { createPgSqlClient } from './pg-sql-client.ts';
export { createPgliteSqlClient } from './pglite-sql-client.ts';
export {
  isCopyFromStdin,
  type SqlClient,
  type SqlQueryable,
  type SqlResult,
  type SqlRow,
  type SqlSession,
} from './sql-client.ts';

export { Mutex } from './mutex.ts';
export { createPgSqlClient } from './pg-sql-client.ts';
export { createPgliteSqlClient } from './pglite-sql-client.ts';
export type { SqlClient, SqlQueryable, SqlRow } from './sql-client.ts';

import type { SqlClient } from './sql-client.ts';

export interface SqlMigration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Applies frozen SQL migrations for one schema, once, in one transaction, serialised across
 * processes by an advisory lock (services starting together do not race). A shipped
 * migration is never edited: a change is a new version.
 */
export async function runSqlMigrations(
  sql: SqlClient,
  options: { schema: string; lockKey: number; migrations: readonly SqlMigration[] },
): Promise<void> {
  const table = `${options.schema}.schema_migrations`;
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [options.lockKey]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${table} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await tx.query<{ version: number }>(`SELECT version FROM ${table}`);
    const applied = new Set(rows.map((r) => Number(r.version)));
    for (const migration of options.migrations) {
      if (applied.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query(`INSERT INTO ${table} (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
    }
  });
}

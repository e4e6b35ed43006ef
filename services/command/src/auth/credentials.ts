import { runSqlMigrations, type SqlClient } from '@bahi/sql-client';
import { hash, verify } from '@node-rs/argon2';

/**
 * Password hashes live here, outside the event log: never in an event, a log line or a
 * response. Replaying the log rebuilds everything but passwords, by design.
 */
const migrations = [
  {
    version: 1,
    name: 'credentials',
    sql: `CREATE TABLE auth.credentials (
  user_id uuid PRIMARY KEY,
  password_hash text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);`,
  },
];

// argon2id (the library's default algorithm) with OWASP's second recommended setting.
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export interface Credentials {
  set(userId: string, password: string): Promise<void>;
  check(userId: string, password: string): Promise<boolean>;
}

export async function openCredentials(sql: SqlClient): Promise<Credentials> {
  await runSqlMigrations(sql, { schema: 'auth', lockKey: 7_406_113_010, migrations });
  return {
    async set(userId, password) {
      const passwordHash = await hash(password, ARGON2);
      await sql.query(
        `INSERT INTO auth.credentials (user_id, password_hash) VALUES ($1, $2)
         ON CONFLICT (user_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()`,
        [userId, passwordHash],
      );
    },
    async check(userId, password) {
      const { rows } = await sql.query<{ password_hash: string }>(
        'SELECT password_hash FROM auth.credentials WHERE user_id = $1',
        [userId],
      );
      const stored = rows[0]?.password_hash;
      if (!stored) {
        await hash(password, ARGON2); // same work either way: no timing hint that the user is unknown
        return false;
      }
      return verify(stored, password);
    },
  };
}

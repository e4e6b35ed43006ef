import { createHash } from 'node:crypto';
import { runSqlMigrations, type SqlClient, type SqlQueryable } from '@bahi/sql-client';

/**
 * Sign-in attempts in a sliding window, kept in `command.login_attempts` beside the event log:
 * every command process (two copies behind the gateway, say) counts in the same table, so the
 * limit is the limit however many copies there are, and it survives a restart.
 *
 * Three counts, each with its own limit:
 * - one account from one address (`perAccountAddress`, 5): a guesser at one address is stopped;
 * - one address, any accounts (`perAddress`, 30): one address trying many accounts is stopped;
 * - one account from all addresses together (`perAccount`, 100): guessing spread over many
 *   addresses is stopped too, but it takes far more failures than a person makes, so someone
 *   else's failures do not lock a user out of their own account at their own address.
 *
 * The address is the client's as the gateway saw it (`request.ip` with BAHI_TRUSTED_PROXIES set
 * to the gateway): without a trusted gateway every user behind it would share one address.
 *
 * An attempt is counted *before* its password is checked (`attempt`), inside one transaction
 * that holds an advisory lock per count, so a burst of parallel guesses, on one process or
 * several, cannot slip past the count while the slow argon2 checks run. A success takes its
 * attempt back and clears its account-from-address count.
 */
const migrations = [
  {
    version: 2,
    name: 'login attempts',
    sql: `CREATE TABLE command.login_attempts (
  key text NOT NULL,
  at bigint NOT NULL
);
CREATE INDEX login_attempts_key_at ON command.login_attempts (key, at);`,
  },
];

export interface LoginLimits {
  windowMs?: number;
  perAccountAddress?: number;
  perAddress?: number;
  perAccount?: number;
  now?: () => number;
}

/** A short fixed-size name for a count: emails and addresses stay out of lock ids and indexes. */
const keyOf = (kind: string, value: string) =>
  `${kind}:${createHash('sha256').update(value).digest('hex').slice(0, 32)}`;

export async function createLoginLimiter(sql: SqlClient, options: LoginLimits = {}) {
  // The command schema's migrations (idempotency.ts has versions 1 and 3) under the same lock.
  await runSqlMigrations(sql, { schema: 'command', lockKey: 7_406_113_011, migrations });
  const windowMs = options.windowMs ?? 15 * 60_000;
  const limits = {
    pair: options.perAccountAddress ?? 5,
    address: options.perAddress ?? 30,
    account: options.perAccount ?? 100,
  };
  const now = options.now ?? Date.now;
  let sinceSweep = 0;

  const counts = (account: string, address: string): Array<[string, number]> => [
    [keyOf('pair', `${account}\n${address}`), limits.pair],
    [keyOf('ip', address), limits.address],
    [keyOf('acct', account), limits.account],
  ];

  /** Locks the counts (in one order, so two transactions never wait on each other in a cycle). */
  const lock = async (tx: SqlQueryable, keys: string[]) => {
    for (const key of [...keys].sort())
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7406113012))', [key]);
  };

  /** The wait the counts impose at `t`: 0, or until the oldest attempt that fills a count leaves the window. */
  const waitOf = async (tx: SqlQueryable, keyed: Array<[string, number]>, t: number) => {
    let wait = 0;
    for (const [key, limit] of keyed) {
      const { rows } = await tx.query<{ at: string }>(
        `SELECT at::text FROM command.login_attempts WHERE key = $1 AND at > $2
          ORDER BY at DESC OFFSET $3 LIMIT 1`,
        [key, t - windowMs, limit - 1],
      );
      if (rows[0]) wait = Math.max(wait, Number(rows[0].at) + windowMs - t);
    }
    return wait;
  };

  const sweep = async () => {
    if (++sinceSweep < 500) return;
    sinceSweep = 0;
    await sql.query('DELETE FROM command.login_attempts WHERE at <= $1', [now() - windowMs]);
  };

  return {
    /** Milliseconds to wait before another attempt, or 0 when one is allowed now (counts nothing). */
    async retryAfterMs(account: string, address: string): Promise<number> {
      return waitOf(sql, counts(account, address), now());
    },
    /**
     * Counts an attempt and answers 0 when it may go on to check the password; otherwise the
     * milliseconds to wait, and nothing is counted. The check and the count are one transaction
     * under the counts' locks: no other request, on any process, counts in between.
     */
    async attempt(account: string, address: string): Promise<number> {
      const keyed = counts(account, address);
      const t = now();
      const wait = await sql.transaction(async (tx) => {
        await lock(
          tx,
          keyed.map(([key]) => key),
        );
        const wait = await waitOf(tx, keyed, t);
        if (wait > 0) return wait;
        await tx.query('INSERT INTO command.login_attempts (key, at) SELECT unnest($1::text[]), $2', [
          keyed.map(([key]) => key),
          t,
        ]);
        return 0;
      });
      await sweep().catch(() => {});
      return wait;
    },
    /** The password was right: its account-from-address count is cleared, the other two take the attempt back. */
    async succeeded(account: string, address: string): Promise<void> {
      const [[pair], [ip], [acct]] = counts(account, address) as [
        [string, number],
        [string, number],
        [string, number],
      ];
      await sql.transaction(async (tx) => {
        await lock(tx, [pair, ip, acct]);
        await tx.query('DELETE FROM command.login_attempts WHERE key = $1', [pair]);
        for (const key of [ip, acct])
          await tx.query(
            `DELETE FROM command.login_attempts WHERE ctid = (
               SELECT ctid FROM command.login_attempts WHERE key = $1 ORDER BY at DESC LIMIT 1)`,
            [key],
          );
      });
    },
  };
}

export type LoginLimiter = Awaited<ReturnType<typeof createLoginLimiter>>;

import { createHash } from 'node:crypto';
import { HttpError, signedIn } from '@bahi/server-kit';
import { runSqlMigrations, type SqlClient } from '@bahi/sql-client';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { isDryRun } from './dry-run.ts';

/**
 * `Idempotency-Key` on every write (issue #16): a client that did not hear the answer to a
 * write retries it with the same key and body and gets the first answer back, with nothing
 * appended twice. The first answer is kept in `command.idempotency` (beside the event log, in
 * the same Postgres or PGlite), so it survives restarts and is seen by every command process.
 *
 * Per signed-in user and key. Only a success (2xx) is kept: a refusal appended nothing, so
 * its retry simply runs again. The same key with another method, path or body is a 422. A key
 * whose request is still running answers 409; one left running by a crashed process is taken
 * over after 5 minutes. Answers are kept for 24 hours. A dry run (dry-run.ts) appends nothing
 * and is neither kept nor answered from a kept answer: its key is ignored.
 */
const migrations = [
  {
    version: 1,
    name: 'idempotency',
    sql: `CREATE TABLE command.idempotency (
  user_id uuid NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  status integer,
  body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_created_at ON command.idempotency (created_at);`,
  },
];

const KEY = /^[\x21-\x7e]{1,255}$/;
const KEEP_HOURS = 24;
const STALE_MINUTES = 5;

interface Claimed {
  userId: string;
  key: string;
}
const claims = new WeakMap<FastifyRequest, Claimed>();

export async function openIdempotency(sql: SqlClient) {
  await runSqlMigrations(sql, { schema: 'command', lockKey: 7_406_113_011, migrations });
  let sinceSweep = 0;

  const beforeValidation = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || isDryRun(request)) return;
    if (typeof header !== 'string' || !KEY.test(header)) {
      const msg = 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)';
      throw new HttpError(400, `${msg}.`, [{ msg, path: 'Idempotency-Key' }]);
    }
    const userId = signedIn(request).id;
    const fingerprint = createHash('sha256')
      .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest('hex');
    if (++sinceSweep >= 100) {
      sinceSweep = 0;
      await sql.query(
        `DELETE FROM command.idempotency WHERE created_at < now() - interval '${KEEP_HOURS} hours'`,
      );
    }
    const claimed = await sql.query<{ key: string }>(
      `INSERT INTO command.idempotency (user_id, key, fingerprint) VALUES ($1, $2, $3)
       ON CONFLICT (user_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, created_at = now()
         WHERE command.idempotency.status IS NULL
           AND command.idempotency.created_at < now() - interval '${STALE_MINUTES} minutes'
       RETURNING key`,
      [userId, header, fingerprint],
    );
    if (claimed.rows.length > 0) {
      claims.set(request, { userId, key: header });
      return;
    }
    const { rows } = await sql.query<{ fingerprint: string; status: number | null; body: string | null }>(
      'SELECT fingerprint, status, body FROM command.idempotency WHERE user_id = $1 AND key = $2',
      [userId, header],
    );
    const row = rows[0];
    if (row && row.fingerprint !== fingerprint) {
      const msg = 'This Idempotency-Key was already used for a different request; use a new key';
      throw new HttpError(422, `${msg}.`, [{ msg, path: 'Idempotency-Key' }]);
    }
    if (!row || row.status === null) {
      throw new HttpError(
        409,
        'A request with this Idempotency-Key is still being processed. Please retry shortly.',
      );
    }
    reply.header('idempotent-replayed', 'true');
    return reply.code(row.status).type('application/json; charset=utf-8').send(row.body);
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = claims.get(request);
    if (!claim) return payload;
    claims.delete(request);
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
      await sql.query(
        'UPDATE command.idempotency SET status = $3, body = $4 WHERE user_id = $1 AND key = $2',
        [claim.userId, claim.key, reply.statusCode, payload],
      );
    } else {
      await sql.query('DELETE FROM command.idempotency WHERE user_id = $1 AND key = $2 AND status IS NULL', [
        claim.userId,
        claim.key,
      ]);
    }
    return payload;
  };

  return {
    /**
     * Adds the handling to every write route registered inside `register` (sign-in is left
     * out: its answer is a session token, never kept).
     */
    async around(app: FastifyInstance, register: () => Promise<void>): Promise<void> {
      let registering = true;
      app.addHook('onRoute', (route: RouteOptions) => {
        const methods = ([] as string[]).concat(route.method);
        if (!registering || methods.every((m) => m === 'GET' || m === 'HEAD')) return;
        if (route.url === '/api/auth/login') return;
        // Before validation and the route's own role check: a replay answers whatever the body.
        route.preValidation = [
          beforeValidation,
          ...([] as unknown[]).concat(route.preValidation ?? []),
        ] as never;
        route.onSend = [...([] as unknown[]).concat(route.onSend ?? []), onSend] as never;
      });
      try {
        await register();
      } finally {
        registering = false;
      }
    },
  };
}

export type Idempotency = Awaited<ReturnType<typeof openIdempotency>>;

import { createHash, randomUUID } from 'node:crypto';
import { HttpError, signedIn } from '@bahi/server-kit';
import { runSqlMigrations, type SqlClient } from '@bahi/sql-client';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { isDryRun } from './dry-run-header.ts';
import { type LockManager, type WriteScope, writeScopes } from './write-scope.ts';

/**
 * `Idempotency-Key` on every write (issues #16, #27): a client that did not hear the answer to
 * a write retries it with the same key and body and gets the first answer back, with nothing
 * appended twice - whatever failed where. The first answer is kept in `command.idempotency`
 * (beside the event log, in the same Postgres or PGlite), so it survives restarts and is seen
 * by every command process.
 *
 * Per signed-in user and key. The request that claims a key holds the key's lock until it has
 * answered (write-scope.ts; on Postgres a session-level advisory lock, which a crashed process's
 * connection lets go). Its record ids and event ids derive from the claim's nonce. A retry that
 * finds the key claimed but unanswered, and can take its lock, knows the first attempt is over:
 * it runs the request again, and each step that the first attempt appended is found by its
 * event ids and answered with its original position instead of being decided again - so the
 * retry answers the original ids and positions at once, and a half-done request (a user's email
 * reserved, the user not yet created) is completed rather than repeated.
 *
 * Only a success (2xx) is kept. A refusal that appended nothing forgets the key: its retry
 * simply runs again. The same key with another method, path or body is a 422; a key whose
 * request is still running answers 409. Answers are kept for 24 hours. A dry run (dry-run.ts)
 * appends nothing and is neither kept nor answered from a kept answer: its key is ignored.
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
  {
    // The command schema's versions are shared with login-limiter.ts (version 2).
    version: 3,
    name: 'a nonce per claim, from which its ids derive',
    // Claims left unanswered by the version before get a nonce no event carries: their retry
    // runs again, as it did then.
    sql: 'ALTER TABLE command.idempotency ADD COLUMN nonce uuid NOT NULL DEFAULT gen_random_uuid();',
  },
];

const KEY = /^[\x21-\x7e]{1,255}$/;
/** The claim of a key: a row with no answer yet, unless the key has one already. */
const CLAIM = {
  table: 'command.idempotency',
  columns: [
    ['user_id', 'uuid'],
    ['key', 'text'],
    ['fingerprint', 'text'],
    ['nonce', 'uuid'],
  ],
  conflict: 'user_id, key',
} as const;
const KEEP_HOURS = 24;

/** A write request's scope and what it still has to do at the end. */
interface Entry {
  scope: WriteScope;
  claim?: { userId: string; key: string };
  running: boolean;
  closing: boolean;
  closed: boolean;
}
const entries = new WeakMap<FastifyRequest, Entry>();

/** Locks go when the request has answered, or its connection dropped and its handler ended. */
async function finish(entry: Entry) {
  entry.closing = true;
  if (entry.running || entry.closed) return;
  entry.closed = true;
  await entry.scope.locks.release();
}

/**
 * The key for this request (the sweep of old keys done): its lock taken and the key claimed now
 * (on Postgres in one round trip), or the first attempt's answer replayed, or a key claimed by an
 * attempt that ended without answering taken over to finish what it began; a key of another
 * request, or one still being processed, is refused.
 */
async function claimKey(
  sql: SqlClient,
  request: FastifyRequest,
  reply: FastifyReply,
  entry: Entry,
  { userId, key }: { userId: string; key: string },
) {
  const fingerprint = createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
  const nonce = randomUUID();
  const lock = `idempotency:${userId}:${key}`;
  const busy = () =>
    new HttpError(409, 'A request with this Idempotency-Key is still being processed. Please retry shortly.');
  let claimed: boolean;
  const locks = entry.scope.locks;
  if (locks.tryExclusiveThenInsert) {
    // Postgres: the key's lock and the claim in one round trip (bench/command-mix).
    const inserted = await locks.tryExclusiveThenInsert(lock, CLAIM, [userId, key, fingerprint, nonce]);
    if (inserted === undefined) throw busy();
    claimed = inserted;
  } else {
    if (!(await locks.tryExclusive(lock))) throw busy();
    const { rows } = await sql.query(
      `INSERT INTO command.idempotency (user_id, key, fingerprint, nonce) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, key) DO NOTHING RETURNING key`,
      [userId, key, fingerprint, nonce],
    );
    claimed = rows.length > 0;
  }
  if (claimed) {
    entry.claim = { userId, key };
    entry.scope.keyed = { nonce, recovering: false, fresh: true, steps: 0, ids: 0 };
    return;
  }
  const { rows } = await sql.query<{
    fingerprint: string;
    status: number | null;
    body: string | null;
    nonce: string;
  }>(
    'SELECT fingerprint, status, body, nonce::text FROM command.idempotency WHERE user_id = $1 AND key = $2',
    [userId, key],
  );
  const row = rows[0];
  if (!row) throw new HttpError(409, 'This Idempotency-Key was just released. Please retry.');
  if (row.fingerprint !== fingerprint) {
    const msg = 'This Idempotency-Key was already used for a different request; use a new key';
    throw new HttpError(422, `${msg}.`, [{ msg, path: 'Idempotency-Key' }]);
  }
  if (row.status !== null) {
    reply.header('idempotent-replayed', 'true');
    return reply.code(row.status).type('application/json; charset=utf-8').send(row.body);
  }
  // Claimed, never answered, and its lock is ours: the first attempt ended without answering.
  entry.claim = { userId, key };
  entry.scope.keyed = { nonce: row.nonce, recovering: true, fresh: false, steps: 0, ids: 0 };
}

export async function openIdempotency(sql: SqlClient, locks: LockManager) {
  await runSqlMigrations(sql, { schema: 'command', lockKey: 7_406_113_011, migrations });
  let sinceSweep = 0;

  const entryOf = (request: FastifyRequest, reply: FastifyReply): Entry => {
    let entry = entries.get(request);
    if (!entry) {
      const created: Entry = {
        scope: { locks: locks.open(), appended: false },
        running: false,
        closing: false,
        closed: false,
      };
      reply.raw.once('close', () => void finish(created).catch(() => {}));
      entries.set(request, created);
      entry = created;
    }
    return entry;
  };

  const beforeValidation = async (request: FastifyRequest, reply: FastifyReply) => {
    const entry = entryOf(request, reply);
    const header = request.headers['idempotency-key'];
    if (header === undefined || isDryRun(request)) return;
    if (typeof header !== 'string' || !KEY.test(header)) {
      const msg = 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID, say)';
      throw new HttpError(400, `${msg}.`, [{ msg, path: 'Idempotency-Key' }]);
    }
    const userId = signedIn(request).id;
    if (++sinceSweep >= 100) {
      sinceSweep = 0;
      await sql.query(
        `DELETE FROM command.idempotency WHERE created_at < now() - interval '${KEEP_HOURS} hours'`,
      );
    }
    return claimKey(sql, request, reply, entry, { userId, key: header });
  };

  const onSend = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const entry = entries.get(request);
    if (!entry) return payload;
    try {
      const claim = entry.claim;
      entry.claim = undefined;
      if (!claim) return payload;
      const ok = reply.statusCode >= 200 && reply.statusCode < 300;
      if (ok && typeof payload === 'string') {
        await sql.query(
          'UPDATE command.idempotency SET status = $3, body = $4 WHERE user_id = $1 AND key = $2',
          [claim.userId, claim.key, reply.statusCode, payload],
        );
        // A retry whose every step the first attempt had appended: the first attempt's answer.
        if (entry.scope.keyed?.fresh === false && !entry.scope.appended)
          reply.header('idempotent-replayed', 'true');
      } else if (!entry.scope.appended) {
        await sql.query(
          'DELETE FROM command.idempotency WHERE user_id = $1 AND key = $2 AND status IS NULL',
          [claim.userId, claim.key],
        );
      }
      // A failure after an append keeps the claim unanswered: its retry finishes what was begun.
      return payload;
    } finally {
      // The answer is decided: the handler's work is over, though its promise may still be
      // pending (a handler that returns `reply` waits, through Reply's then(), until the answer
      // has gone out). The locks go now, before the answer is written: a client that hears the
      // answer and at once sends the same key again must find the key free, not "still being
      // processed" (seen under load in CI).
      entry.running = false;
      await finish(entry);
    }
  };

  return {
    /**
     * Adds the handling to every write route registered inside `register` (sign-in is left
     * out: its answer is a session token, never kept). Every such request runs in a write scope
     * (write-scope.ts), keyed or not: it holds the locks its handler takes until it answers.
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
        const handler = route.handler;
        route.handler = async function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
          const entry = entryOf(request, reply);
          entry.running = true;
          try {
            return await writeScopes.run(entry.scope, () => handler.call(this, request, reply));
          } finally {
            entry.running = false;
            if (entry.closing) await finish(entry);
          }
        } as typeof handler;
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

import type { RecordedEvent } from '@bahi/event-store';
import { type AuthUser, HttpError, sessionRefusal, type TokenService } from '@bahi/server-kit';
import sse from '@fastify/sse';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { adminOnlyEvent, seesEverything } from './visibility.ts';

export const SESSION_COOKIE = 'bahi_session';

export interface StreamAuth {
  tokens: TokenService;
  loadUser(id: string): Promise<AuthUser | undefined>;
}

/** Open streams one user may hold at once; the next one answers 429. */
export const MAX_STREAMS_PER_USER = 5;
/** How far back Last-Event-ID may reach: an older one resumes this many positions before the head. */
export const MAX_REPLAY_POSITIONS = 10_000n;
/** How often an open stream re-checks its user when no event arrives (it also re-checks on every event). */
export const STREAM_RECHECK_MS = 5_000;

function sessionToken(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (bearer) return bearer[1];
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** What the UI hears: a re-checked license, a notification for its role, or which kind of record changed. */
function toMessage(event: RecordedEvent, user: { id: string; role: string }) {
  const role = user.role;
  if (event.type === 'NotificationRead' || event.type === 'NotificationsAllRead') {
    // Who read what is nobody else's business.
    if ((event.data as { user_id?: string }).user_id !== user.id) return undefined;
  } else if (!seesEverything(role) && adminOnlyEvent(event)) return undefined;
  if (event.type === 'NotificationRaised') {
    const n = event.data as { audience: string };
    return n.audience === role
      ? { id: event.position.toString(), event: 'notification', data: event.data }
      : undefined;
  }
  if (event.type === 'LicenseChecked') {
    return {
      id: event.position.toString(),
      event: 'license-updated',
      data: { isValid: (event.data as { is_valid: boolean }).is_valid },
    };
  }
  return {
    id: event.position.toString(),
    event: 'data-changed',
    data: { type: event.type, stream: event.streamId.split('-')[0], position: event.position.toString() },
  };
}

/**
 * GET /api/events: the live stream. A browser's EventSource cannot send headers, so the
 * session comes from the HttpOnly cookie login sets (a Bearer header works too); no token
 * ever goes in the URL. It follows the log from Last-Event-ID (a position) or from now,
 * with heartbeats, so a reconnecting client misses nothing.
 */
export async function registerEventStream(
  app: FastifyInstance,
  deps: QueryDeps & StreamAuth & { recheckMs?: number },
): Promise<void> {
  await app.register(sse, { heartbeatInterval: 15_000 });
  const openStreams = new Map<string, number>();
  const recheckMs = deps.recheckMs ?? STREAM_RECHECK_MS;
  app.get(
    '/api/events',
    {
      sse: { kind: 'only' },
      schema: {
        summary: 'The live event stream (server-sent events; signed in by the session cookie)',
        tags: ['events'],
        response: {
          200: {
            description: 'license-updated, notification and data-changed events',
            content: { 'text/event-stream': { schema: z.string() } },
          },
        },
      },
    },
    async (request, reply) => {
      const token = sessionToken(request);
      if (!token) throw new HttpError(401, 'You are not signed in.');
      // A token that does not verify is an InvalidTokenError: the error handler's 401.
      const claims = await deps.tokens.verify(token);
      const userId = claims.userId;
      const user = await deps.loadUser(userId);
      const refusal = sessionRefusal(user, claims.issuedAtMs);
      if (refusal || !user) throw new HttpError(401, refusal ?? 'You are not signed in.');
      const open = openStreams.get(userId) ?? 0;
      if (open >= MAX_STREAMS_PER_USER)
        throw new HttpError(
          429,
          `You already have ${MAX_STREAMS_PER_USER} live streams open. Close a tab or window and try again.`,
        );
      openStreams.set(userId, open + 1);
      let closed = false;
      let timer: NodeJS.Timeout | undefined;
      const release = () => {
        if (closed) return;
        closed = true;
        if (timer) clearInterval(timer);
        const n = (openStreams.get(userId) ?? 1) - 1;
        if (n > 0) openStreams.set(userId, n);
        else openStreams.delete(userId);
      };
      try {
        const head = await deps.eventStore.headPosition();
        const last = reply.sse.lastEventId;
        const asked = last && /^\d{1,19}$/.test(last) ? BigInt(last) : head;
        // An old Last-Event-ID does not replay the whole log: it resumes MAX_REPLAY_POSITIONS
        // before the head and says so (`missed`), so the UI reloads what it shows.
        const oldest = head > MAX_REPLAY_POSITIONS ? head - MAX_REPLAY_POSITIONS : 0n;
        const from = asked < oldest ? oldest : asked;
        const subscription = deps.eventStore.subscribe(from);
        reply.sse.keepAlive();
        const stop = () => {
          release();
          void subscription.close();
        };
        reply.sse.onClose(stop);
        // The user is read again on events and every few seconds: deactivating or deleting
        // them, or changing their password, ends a stream opened before.
        let current = user;
        let checkedAt = Date.now();
        const stillAllowed = async (): Promise<boolean> => {
          checkedAt = Date.now();
          const fresh = await deps.loadUser(userId);
          if (!sessionRefusal(fresh, claims.issuedAtMs) && fresh) {
            current = fresh;
            return true;
          }
          stop();
          if (reply.sse.isConnected) reply.sse.close();
          return false;
        };
        timer = setInterval(() => {
          stillAllowed().catch((error) => request.log.warn({ err: error }, 'event stream re-check failed'));
        }, recheckMs);
        timer.unref();
        await reply.sse.send({
          event: 'ready',
          data: { position: from.toString(), ...(from > asked ? { missed: true } : {}) },
        });
        void (async () => {
          for await (const event of subscription) {
            if (!reply.sse.isConnected || closed) break;
            // The user's own stream changing is checked at once; other events at most once a second,
            // so a burst of writes does not read the user's stream once per event per open stream.
            const mine = event.streamId === `user-${userId}`;
            if ((mine || Date.now() - checkedAt >= 1000) && !(await stillAllowed())) break;
            const message = toMessage(event, current);
            if (message) await reply.sse.send(message);
          }
        })().catch((error) => request.log.warn({ err: error }, 'event stream ended'));
      } catch (error) {
        release();
        throw error;
      }
    },
  );
}

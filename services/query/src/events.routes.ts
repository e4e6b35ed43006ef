import { once } from 'node:events';
import { type AuthUser, HttpError, sessionRefusal, type TokenService } from '@bahi/server-kit';
import sse from '@fastify/sse';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { type FeedEvent, LiveFeed, Turns } from './live-feed.ts';
import { adminOnlyEvent, seesEverything } from './visibility.ts';

export const SESSION_COOKIE = 'bahi_session';

export interface StreamAuth {
  tokens: TokenService;
  loadUser(id: string): Promise<AuthUser | undefined>;
  /** Open streams at most, all users together (BAHI_MAX_STREAMS; MAX_OPEN_STREAMS without it). */
  maxOpenStreams?: number;
}

/** Open streams one user may hold at once; the next one answers 429. */
export const MAX_STREAMS_PER_USER = 5;
/** Open streams this process holds at once, all users together, unless BAHI_MAX_STREAMS says; the next one answers 503. */
export const MAX_OPEN_STREAMS = 1000;
/** How long a refused stream is told to wait (Retry-After, seconds). */
export const STREAMS_RETRY_AFTER_S = 30;
/** How far back Last-Event-ID may reach: an older one resumes this many positions before the head. */
export const MAX_REPLAY_POSITIONS = 10_000n;
/** How often an open stream re-checks its user when no event arrives (it also re-checks on every event). */
export const STREAM_RECHECK_MS = 5_000;
/** Events one stream formats and writes in one turn (one write on its socket). */
const CHUNK = 250;
/** Streams formatting a chunk at once: requests are served between any two turns. */
const TURNS = 1;

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
function toMessage(event: FeedEvent, user: { id: string; role: string }) {
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

/** A message as the SSE wire carries it (the same framing as @fastify/sse's send). */
const frame = (m: { id: string; event: string; data: unknown }) =>
  `id: ${m.id}\nevent: ${m.event}\ndata: ${JSON.stringify(m.data)}\n\n`;

const EVENTS_SCHEMA = {
  summary: 'The live event stream (server-sent events; signed in by the session cookie)',
  tags: ['events'],
  response: {
    200: {
      description: 'license-updated, notification and data-changed events',
      content: { 'text/event-stream': { schema: z.string() } },
    },
  },
};

/** Who may open a stream: a signed-in user whose session stands, within the per-user and the server's limits. */
async function admit(
  request: FastifyRequest,
  reply: FastifyReply,
  tokens: TokenService,
  loadUser: (id: string, notBefore: number) => Promise<AuthUser | undefined>,
  limits: { mine: (userId: string) => number; open: () => number; maxOpen: number },
) {
  const arrived = Date.now();
  const token = sessionToken(request);
  if (!token) throw new HttpError(401, 'You are not signed in.');
  // A token that does not verify is an InvalidTokenError: the error handler's 401.
  const claims = await tokens.verify(token);
  const userId = claims.userId;
  // A read of the user that started after this request arrived may be shared: reconnecting
  // tabs of one user read them once, and still see any change made before they asked.
  const user = await loadUser(userId, arrived);
  const refusal = sessionRefusal(user, claims.issuedAtMs);
  if (refusal || !user) throw new HttpError(401, refusal ?? 'You are not signed in.');
  const mineOpen = limits.mine(userId);
  if (mineOpen >= MAX_STREAMS_PER_USER) {
    reply.header('retry-after', String(STREAMS_RETRY_AFTER_S));
    throw new HttpError(
      429,
      `You already have ${MAX_STREAMS_PER_USER} live streams open. Close a tab or window and try again.`,
    );
  }
  if (limits.open() >= limits.maxOpen) {
    reply.header('retry-after', String(STREAMS_RETRY_AFTER_S));
    throw new HttpError(
      503,
      `The server has as many live streams open as it serves (${limits.maxOpen}). Try again in ${STREAMS_RETRY_AFTER_S} seconds.`,
    );
  }
  return { claims, userId, user, mineOpen };
}

/** The user as a read started at `notBefore` or later found them (one read shared by many). */
function sharedUserReads(load: (id: string) => Promise<AuthUser | undefined>) {
  const loaded = new Map<string, { at: number; user: Promise<AuthUser | undefined> }>();
  const loadUser = (id: string, notBefore: number) => {
    const hit = loaded.get(id);
    if (hit && hit.at >= notBefore) return hit.user;
    const user = load(id);
    loaded.set(id, { at: Date.now(), user });
    user.catch(() => loaded.delete(id));
    return user;
  };
  return { loadUser, loaded };
}

/** What a stream's writer reads of its stream as it goes. */
interface StreamPump {
  request: FastifyRequest;
  reply: FastifyReply;
  feed: LiveFeed;
  turns: Turns;
  /** Settles when the stream has ended. */
  end: Promise<void>;
  isClosed: () => boolean;
  /** When the user was last read again, and who they were then. */
  checkedAt: () => number;
  current: () => AuthUser;
  stillAllowed: (notBefore: number) => Promise<boolean>;
  stop: () => void;
  mine: (event: FeedEvent) => boolean;
}

/** Writes the log's events after `from` to one stream, a chunk a turn, until the stream ends. */
async function pump(p: StreamPump, from: bigint): Promise<void> {
  const { reply, feed, turns, end, stillAllowed, stop, mine } = p;
  let position = from;
  let checkedMine = position;
  while (!p.isClosed() && reply.sse.isConnected) {
    // The user's own stream changing is checked at once, before its event is told;
    // other events at most once a second.
    const due = Date.now() - p.checkedAt() >= 1000;
    const next = feed.after(position, 1)?.[0];
    if (next && ((mine(next) && next.position > checkedMine) || due)) {
      if (mine(next)) checkedMine = next.position;
      if (!(await stillAllowed(mine(next) ? Date.now() : Date.now() - 1000))) break;
    }
    // The app is closing: the stream ends with it.
    if (feed.closed) {
      stop();
      break;
    }
    const arrival = feed.arrival();
    await turns.take();
    let text = '';
    let more = false;
    try {
      if (p.isClosed()) break;
      const events = feed.after(position, CHUNK);
      // Fallen out of the window (a client that reads slower than the log grows): it
      // ends, and its reconnection resumes from its last id with `missed`.
      if (!events) {
        stop();
        break;
      }
      for (const event of events) {
        if (mine(event) && event.position > checkedMine) break; // checked first, next turn
        position = event.position;
        const message = toMessage(event, p.current());
        if (message) text += frame(message);
      }
      more = events.length > 0;
    } finally {
      turns.give();
    }
    // A client that reads slowly holds no turn: its stream waits for its socket alone.
    if (text && !reply.raw.write(text)) await Promise.race([once(reply.raw, 'drain'), end]);
    if (!more) await Promise.race([arrival, end]);
  }
}

/**
 * GET /api/events: the live stream. A browser's EventSource cannot send headers, so the
 * session comes from the HttpOnly cookie login sets (a Bearer header works too); no token
 * ever goes in the URL. It follows the log from Last-Event-ID (a position) or from now,
 * with heartbeats, so a reconnecting client misses nothing.
 *
 * Replays are bounded for everyone (issue #27.4): one reader of the log's tail keeps the last
 * MAX_REPLAY_POSITIONS positions in memory (LiveFeed) and every stream is a cursor over them;
 * streams take turns (Turns) to format and write at most CHUNK messages, one turn of the event
 * loop each, so reads and writes keep their latency while 200 streams catch up. At most
 * MAX_OPEN_STREAMS streams are open at once (503 with Retry-After after).
 */
export async function registerEventStream(
  app: FastifyInstance,
  deps: QueryDeps & StreamAuth & { recheckMs?: number },
): Promise<void> {
  await app.register(sse, { heartbeatInterval: 15_000 });
  const openStreams = new Map<string, number>();
  let open = 0;
  const maxOpen = deps.maxOpenStreams ?? MAX_OPEN_STREAMS;
  const recheckMs = deps.recheckMs ?? STREAM_RECHECK_MS;
  // On shutdown (SIGTERM) every open stream ends first: otherwise the server waits for them and
  // never stops cleanly. A browser's EventSource reconnects, to another copy or after the restart.
  const closers = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const close of closers) close();
  });
  const feed = new LiveFeed(deps.eventStore, MAX_REPLAY_POSITIONS, (error) =>
    app.log.warn({ err: error }, 'live feed: reading the log failed; retrying'),
  );
  const turns = new Turns(TURNS);
  app.addHook('onClose', () => feed.close());
  // A user's streams share their re-reads of the user: a replay storm reads each user at most
  // once a second, not once a second per stream.
  const { loadUser, loaded } = sharedUserReads(deps.loadUser);
  app.get(
    '/api/events',
    {
      sse: { kind: 'only' },
      schema: EVENTS_SCHEMA,
    },
    async (request, reply) => {
      const { claims, userId, user, mineOpen } = await admit(request, reply, deps.tokens, loadUser, {
        mine: (id) => openStreams.get(id) ?? 0,
        open: () => open,
        maxOpen,
      });
      openStreams.set(userId, mineOpen + 1);
      open++;
      let closed = false;
      let ended!: () => void;
      const end = new Promise<void>((resolve) => {
        ended = resolve;
      });
      let timer: NodeJS.Timeout | undefined;
      const release = () => {
        if (closed) return;
        closed = true;
        ended();
        open--;
        if (timer) clearInterval(timer);
        const n = (openStreams.get(userId) ?? 1) - 1;
        if (n > 0) openStreams.set(userId, n);
        else {
          openStreams.delete(userId);
          loaded.delete(userId);
        }
      };
      try {
        // "Now" is the committed head, not where the shared reader stands: right after a large
        // append the reader may still be reading it, and the window is counted from the head.
        await feed.start();
        const head = await deps.eventStore.headPosition();
        const last = reply.sse.lastEventId;
        const asked = last && /^\d{1,19}$/.test(last) ? BigInt(last) : head;
        // An old Last-Event-ID does not replay the whole log: it resumes MAX_REPLAY_POSITIONS
        // before the head and says so (`missed`), so the UI reloads what it shows.
        const oldest = head > MAX_REPLAY_POSITIONS ? head - MAX_REPLAY_POSITIONS : 0n;
        const from = [asked, oldest, feed.from].reduce((a, b) => (a > b ? a : b));
        reply.sse.keepAlive();
        const stop = () => {
          release();
          if (reply.sse.isConnected) reply.sse.close();
        };
        reply.sse.onClose(release);
        // Ended first on shutdown (preClose above).
        closers.add(stop);
        reply.sse.onClose(() => closers.delete(stop));
        // The user is read again on events and every few seconds: deactivating or deleting
        // them, or changing their password, ends a stream opened before.
        let current = user;
        let checkedAt = Date.now();
        const stillAllowed = async (notBefore: number): Promise<boolean> => {
          checkedAt = Date.now();
          const fresh = await loadUser(userId, notBefore);
          if (!sessionRefusal(fresh, claims.issuedAtMs) && fresh) {
            current = fresh;
            return true;
          }
          stop();
          return false;
        };
        timer = setInterval(() => {
          stillAllowed(Date.now() - 1000).catch((error) =>
            request.log.warn({ err: error }, 'event stream re-check failed'),
          );
        }, recheckMs);
        timer.unref();
        await reply.sse.send({
          event: 'ready',
          data: { position: from.toString(), ...(from > asked ? { missed: true } : {}) },
        });
        const mine = (event: FeedEvent) => event.streamId === `user-${userId}`;
        const pumped = { request, reply, feed, turns, end, stillAllowed, stop, mine };
        void pump(
          { ...pumped, isClosed: () => closed, checkedAt: () => checkedAt, current: () => current },
          from,
        ).catch((error) => {
          if (!closed) request.log.warn({ err: error }, 'event stream ended');
          stop();
        });
      } catch (error) {
        release();
        throw error;
      }
    },
  );
}

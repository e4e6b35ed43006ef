import type { RecordedEvent } from '@bahi/event-store';
import { HttpError, InvalidTokenError, type SignedInUser, type TokenService } from '@bahi/server-kit';
import sse from '@fastify/sse';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { QueryDeps } from './routes.ts';

export const SESSION_COOKIE = 'bahi_session';

export interface StreamAuth {
  tokens: TokenService;
  loadUser(id: string): Promise<(SignedInUser & { is_active: boolean }) | undefined>;
}

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
function toMessage(event: RecordedEvent, role: string) {
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
export async function registerEventStream(app: FastifyInstance, deps: QueryDeps & StreamAuth): Promise<void> {
  await app.register(sse, { heartbeatInterval: 15_000 });
  app.get('/api/events', { sse: { kind: 'only' } }, async (request, reply) => {
    const token = sessionToken(request);
    if (!token) throw new HttpError(401, 'You are not signed in.');
    let userId: string;
    try {
      userId = (await deps.tokens.verify(token)).userId;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw new HttpError(401, error.message);
      throw error;
    }
    const user = await deps.loadUser(userId);
    if (!user?.is_active) throw new HttpError(401, 'Your account is not active.');
    const last = reply.sse.lastEventId;
    const from = last && /^\d{1,19}$/.test(last) ? BigInt(last) : await deps.eventStore.headPosition();
    const subscription = deps.eventStore.subscribe(from);
    reply.sse.keepAlive();
    reply.sse.onClose(() => void subscription.close());
    await reply.sse.send({ event: 'ready', data: { position: from.toString() } });
    void (async () => {
      for await (const event of subscription) {
        if (!reply.sse.isConnected) break;
        const message = toMessage(event, user.role);
        if (message) await reply.sse.send(message);
      }
    })().catch((error) => request.log.warn({ err: error }, 'event stream ended'));
  });
}

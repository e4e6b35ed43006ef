import type { EventStore } from '@bahi/event-store';
import type { AuthUser } from '@bahi/server-kit';

type User = AuthUser;

/**
 * Who a token belongs to, from the user's own stream. Until the read side has a users read
 * model, the query side folds the stream itself; it reads events only, never the command
 * side's code or state.
 *
 * Every request asks, so an answer is kept for `cacheMs` (default 1 s): at 32 requests in
 * flight the stream read was one of a list page's four round trips. A user deactivated or
 * deleted can therefore read for at most that long after the change (writes go through the
 * command side, which reads the stream every time).
 */
export function loadUserFromLog(
  eventStore: EventStore,
  options: { cacheMs?: number; now?: () => number } = {},
) {
  const cacheMs = options.cacheMs ?? 1000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { at: number; user: Promise<User | undefined> }>();
  const fold = async (id: string): Promise<User | undefined> => {
    let user: User | undefined;
    let passwordChangedAt: number | undefined;
    for (const event of await eventStore.readStream(`user-${id}`)) {
      if (event.type === 'UserCreated' || event.type === 'UserUpdated') {
        const d = event.data as User;
        user = { id: d.id, name: d.name, email: d.email, role: d.role, is_active: d.is_active };
      } else if (event.type === 'UserDeleted') {
        user = undefined;
      } else if (event.type === 'UserPasswordChanged') {
        passwordChangedAt = Date.parse(event.metadata.recordedAt);
      }
    }
    return user && passwordChangedAt !== undefined && Number.isFinite(passwordChangedAt)
      ? { ...user, password_changed_at: passwordChangedAt }
      : user;
  };
  return (id: string): Promise<User | undefined> => {
    if (cacheMs <= 0) return fold(id);
    const t = now();
    const hit = cache.get(id);
    if (hit && t - hit.at < cacheMs) return hit.user;
    if (cache.size >= 10_000) cache.clear();
    const user = fold(id);
    cache.set(id, { at: t, user });
    // A failed read is not remembered.
    user.catch(() => cache.delete(id));
    return user;
  };
}

import type { EventStore } from '@bahi/event-store';
import type { SignedInUser } from '@bahi/server-kit';

/**
 * Who a token belongs to, from the user's own stream. Until the read side has a users read
 * model (the read-side issue), the query side folds the stream itself; it reads events only,
 * never the command side's code or state.
 */
export function loadUserFromLog(eventStore: EventStore) {
  return async (id: string): Promise<(SignedInUser & { is_active: boolean }) | undefined> => {
    let user: (SignedInUser & { is_active: boolean }) | undefined;
    for (const event of await eventStore.readStream(`user-${id}`)) {
      if (event.type === 'UserCreated' || event.type === 'UserUpdated') {
        const d = event.data as SignedInUser & { is_active: boolean };
        user = { id: d.id, name: d.name, email: d.email, role: d.role, is_active: d.is_active };
      } else if (event.type === 'UserDeleted') {
        user = undefined;
      }
    }
    return user;
  };
}

import type { DomainEvent, UserData } from '@bahi/contracts';
import { masterDecider, masterStreamId } from '@bahi/domain';
import type { EventStore } from '@bahi/event-store';
import { loadStream, type StreamDecider } from '../execute.ts';

/** A user's stream (one object, so the stream cache keeps its folded state). */
export const userDecider = masterDecider('User');

/** Who holds an email: the last reservation in the email's stream. */
export interface EmailReservation {
  userId: string | undefined;
}
export const emailDecider: StreamDecider<EmailReservation> = {
  initialState: () => ({ userId: undefined }),
  evolve: (state, event: DomainEvent) =>
    event.type === 'UserEmailReserved' ? { userId: event.data.user_id } : state,
};

export const emailStreamId = (email: string) => `user-email-${email.trim().toLowerCase()}`;

export async function loadUser(store: EventStore, userId: string): Promise<UserData | undefined> {
  const { state } = await loadStream(store, masterStreamId('User', userId), userDecider);
  return state.status === 'active' ? state.data : undefined;
}

/**
 * The user that really holds an email now: the reservation's user, if that user exists,
 * is not deleted and still has this email. A reservation left behind by a crash, a deleted
 * user or an email change is free to take over.
 */
export async function userHoldingEmail(store: EventStore, email: string): Promise<UserData | undefined> {
  const { state } = await loadStream(store, emailStreamId(email), emailDecider);
  if (!state.userId) return undefined;
  const user = await loadUser(store, state.userId);
  return user && user.email === email.trim().toLowerCase() ? user : undefined;
}

import type { DomainEvent, UserData, UserUpdateInput } from '@bahi/contracts';
import { conflict, decideMaster, masterStreamId, notFound, refuseSelfLockout } from '@bahi/domain';
import { emailDecider, emailStreamId, loadUser, userDecider } from '../auth/users.ts';
import type { CommandDeps } from '../deps.ts';
import { execute, loadStream, type RequestMeta } from '../execute.ts';
import { newRecordId } from '../write-scope.ts';
import type { HandlerContext } from './context.ts';

/**
 * Users (spec section 2): a user's email is reserved in a stream of its own before the user is
 * written, so two users never share one; the admin bootstrap (auth/bootstrap.ts) creates the
 * first Admin through `createUser` too.
 */

const TAKEN = 'A user with this email already exists.';

/**
 * A reservation whose user was never created is taken over only after this long: the user's
 * creation follows its reservation within a password hash's time, and a reservation younger
 * than this may belong to a creation still under way (two parallel creates of one email).
 */
const PENDING_RESERVATION_MS = 60_000;

/**
 * Claims an email for a user in the email's reservation stream, unless a live user holds it or
 * another creation has just reserved it. The previous holder is judged before the append, and
 * the append's decision accepts only that holder (or none) as the one it replaces: of two
 * requests racing for one email, the expected version lets one reserve, and the other decides
 * again, finds a holder it did not judge free, and answers 409.
 */
async function reserveEmail(
  deps: CommandDeps,
  meta: RequestMeta,
  email: string,
  userId: string,
): Promise<void> {
  const stream = emailStreamId(email);
  const { state, last } = await loadStream(deps.eventStore, stream, emailDecider);
  let free: string | undefined;
  if (state.userId && state.userId !== userId) {
    const holder = await loadStream(deps.eventStore, masterStreamId('User', state.userId), userDecider);
    const holds = holder.state.status === 'active' && holder.state.data.email === email.trim().toLowerCase();
    const pending =
      holder.state.status === 'none' &&
      last !== undefined &&
      Date.now() - Date.parse(last.metadata.recordedAt) < PENDING_RESERVATION_MS;
    if (holds || pending) throw conflict(TAKEN);
    free = state.userId; // deleted, moved to another email, or left by a crash: taken over
  }
  await execute(deps.eventStore, meta, stream, emailDecider, (current) => {
    if (current.userId === userId) return [];
    if (current.userId && current.userId !== free) throw conflict(TAKEN);
    return [{ type: 'UserEmailReserved', data: { email, user_id: userId } }];
  });
}

/** Creates a user: email reservation, credentials, then the UserCreated event. */
export async function createUser(
  deps: CommandDeps,
  meta: RequestMeta,
  input: {
    name: string;
    email: string;
    phone: string | null;
    role: UserData['role'];
    is_active: boolean;
    password: string;
  },
  id: string = newRecordId(),
): Promise<{ id: string; position: bigint }> {
  await reserveEmail(deps, meta, input.email, id);
  await deps.credentials.set(id, input.password);
  const data: UserData = {
    id,
    name: input.name,
    email: input.email,
    phone: input.phone,
    role: input.role,
    is_active: input.is_active,
  };
  const { position } = await execute(deps.eventStore, meta, masterStreamId('User', id), userDecider, {
    type: 'Create',
    data,
  });
  return { id, position };
}

/** Changes a user (an Admin's request): never one's own role or access away (refuseSelfLockout). */
export async function updateUser(ctx: HandlerContext, adminId: string, id: string, input: UserUpdateInput) {
  const { deps, meta } = ctx;
  refuseSelfLockout(adminId, id, input);
  const data: UserData = {
    id,
    name: input.name,
    email: input.email,
    phone: input.phone,
    role: input.role,
    is_active: input.is_active,
  };
  // Nothing is reserved or stored for a user that does not exist.
  if (!(await loadUser(deps.eventStore, id))) throw notFound('User not found.');
  await reserveEmail(deps, meta, input.email, id);
  if (input.password) await deps.credentials.set(id, input.password);
  const { position } = await execute(
    deps.eventStore,
    meta,
    masterStreamId('User', id),
    userDecider,
    (state) => {
      const events: DomainEvent[] = decideMaster('User', { type: 'Update', data }, state);
      if (input.password) events.push({ type: 'UserPasswordChanged', data: { id } });
      return events;
    },
  );
  return { id, position };
}

export async function deleteUser(ctx: HandlerContext, adminId: string, id: string) {
  refuseSelfLockout(adminId, id, { delete: true });
  const { position } = await execute(ctx.deps.eventStore, ctx.meta, masterStreamId('User', id), userDecider, {
    type: 'Delete',
    id,
    references: [],
  });
  return { id, position };
}

import {
  type DomainEvent,
  type UserData,
  userCreateInput,
  userUpdateInput,
  writeAnswer,
} from '@bahi/contracts';
import { conflict, decideMaster, masterStreamId, notFound, refuseSelfLockout } from '@bahi/domain';
import { signedIn, writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { emailDecider, emailStreamId, loadUser, userDecider } from '../auth/users.ts';
import type { CommandDeps } from '../deps.ts';
import { execute, loadStream, type RequestMeta } from '../execute.ts';
import { requestMeta } from '../request-meta.ts';
import { newRecordId } from '../write-scope.ts';
import { recordIdParams } from './params.ts';

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

export async function registerUserRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/masters/users',
    {
      preValidation: writerOnly('users'),
      schema: {
        summary: 'Create a user (Admin)',
        tags: ['masters'],
        body: userCreateInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const { id, position } = await createUser(deps, requestMeta(request), input);
      return reply.status(201).send({ id, position: position.toString() });
    },
  );

  api.put(
    '/api/masters/users/:id',
    {
      preValidation: writerOnly('users'),
      schema: {
        summary: 'Change a user (Admin)',
        tags: ['masters'],
        params: recordIdParams('User'),
        body: userUpdateInput,
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const { id } = request.params;
      const input = request.body;
      const meta = requestMeta(request);
      refuseSelfLockout(admin.id, id, input);
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
      return { id, position: position.toString() };
    },
  );

  api.delete(
    '/api/masters/users/:id',
    {
      preValidation: writerOnly('users'),
      schema: {
        summary: 'Delete a user (Admin)',
        tags: ['masters'],
        params: recordIdParams('User'),
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const { id } = request.params;
      refuseSelfLockout(admin.id, id, { delete: true });
      const { position } = await execute(
        deps.eventStore,
        requestMeta(request),
        masterStreamId('User', id),
        userDecider,
        { type: 'Delete', id, references: [] },
      );
      return { id, position: position.toString() };
    },
  );
}

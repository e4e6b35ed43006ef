import { randomUUID } from 'node:crypto';
import { type DomainEvent, type UserData, userCreateInput, userUpdateInput } from '@bahi/contracts';
import { conflict, decideMaster, masterStreamId, notFound } from '@bahi/domain';
import { requireWriter } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { emailDecider, emailStreamId, loadUser, userDecider, userHoldingEmail } from '../auth/users.ts';
import type { CommandDeps } from '../deps.ts';
import { execute, type RequestMeta } from '../execute.ts';
import { requestMeta } from '../request-meta.ts';
import { recordId, toHttp } from './masters.routes.ts';

const TAKEN = 'A user with this email already exists.';

/** Claims an email for a user in the email's reservation stream, unless a live user holds it. */
async function reserveEmail(
  deps: CommandDeps,
  meta: RequestMeta,
  email: string,
  userId: string,
): Promise<void> {
  const holder = await userHoldingEmail(deps.eventStore, email);
  if (holder && holder.id !== userId) throw conflict(TAKEN);
  await execute(deps.eventStore, meta, emailStreamId(email), emailDecider, (state) => {
    if (state.userId === userId) return [];
    return [{ type: 'UserEmailReserved', data: { email, user_id: userId } }];
  });
  // Two users racing for one email: the stream keeps one last reservation; the loser sees it.
  const after = await userHoldingEmail(deps.eventStore, email);
  if (after && after.id !== userId) throw conflict(TAKEN);
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
  id: string = randomUUID(),
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
  const { position } = await execute(
    deps.eventStore,
    meta,
    masterStreamId('User', id),
    userDecider,
    (state) => decideMaster('User', { type: 'Create', data }, state),
  );
  return { id, position };
}

export async function registerUserRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  app.post('/api/masters/users', async (request, reply) => {
    requireWriter(request, 'users');
    const input = userCreateInput.parse(request.body);
    try {
      const { id, position } = await createUser(deps, requestMeta(request), input);
      return reply.status(201).send({ id, position: position.toString() });
    } catch (error) {
      toHttp(error);
    }
  });

  app.put<{ Params: { id: string } }>('/api/masters/users/:id', async (request) => {
    const admin = requireWriter(request, 'users');
    const id = recordId(request.params.id, 'User');
    const input = userUpdateInput.parse(request.body);
    const meta = requestMeta(request);
    try {
      if (id === admin.id && (!input.is_active || input.role !== 'Admin')) {
        throw conflict('You cannot deactivate your own account or take away your own Admin role.');
      }
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
    } catch (error) {
      toHttp(error);
    }
  });

  app.delete<{ Params: { id: string } }>('/api/masters/users/:id', async (request) => {
    const admin = requireWriter(request, 'users');
    const id = recordId(request.params.id, 'User');
    try {
      if (id === admin.id) throw conflict('You cannot delete your own account.');
      const { position } = await execute(
        deps.eventStore,
        requestMeta(request),
        masterStreamId('User', id),
        userDecider,
        (state) => decideMaster('User', { type: 'Delete', id, references: [] }, state),
      );
      return { id, position: position.toString() };
    } catch (error) {
      toHttp(error);
    }
  });
}

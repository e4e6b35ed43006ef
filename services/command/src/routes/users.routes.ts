import { userCreateInput, userUpdateInput, writeAnswer } from '@bahi/contracts';
import { signedIn, writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import type { CommandDeps } from '../deps.ts';
import { contextOf, written } from '../handlers/context.ts';
import * as users from '../handlers/users.ts';
import { requestMeta } from '../request-meta.ts';
import { recordIdParams } from './params.ts';

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
      const { id, position } = await users.createUser(deps, requestMeta(request), request.body);
      return reply.status(201).send(written(id, position));
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
      const ctx = contextOf(deps, request);
      const { id, position } = await users.updateUser(ctx, admin.id, request.params.id, request.body);
      return written(id, position);
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
      const { id, position } = await users.deleteUser(contextOf(deps, request), admin.id, request.params.id);
      return written(id, position);
    },
  );
}

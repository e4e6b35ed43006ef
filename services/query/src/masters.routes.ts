import {
  cityPage,
  customFieldList,
  listQuery,
  partyListQuery,
  partyPage,
  productPage,
  userPage,
  userView,
} from '@bahi/contracts';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { listCities, listCustomFields, listProducts, listUsers, readProfile } from './masters.repository.ts';
import { listParties, PARTY_KINDS } from './parties.repository.ts';
import { readAfterClientPosition } from './reads.ts';

/** A party list also takes `asOf`: balances as the books stood on a business date. */
/** The read models a master list reads. */
const MASTER_READS = ['masters', 'journal', 'custom_field_definitions'];

export async function registerMasterListRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/auth/profile',
    { schema: { summary: 'The signed-in user', tags: ['auth'], response: { 200: userView } } },
    async (request) => {
      const me = signedIn(request);
      await readAfterClientPosition(deps, request, ['masters']);
      return (
        (await readProfile(deps, me.id)) ?? {
          id: me.id,
          name: me.name,
          email: me.email,
          phone: null,
          role: me.role,
          is_active: true,
        }
      );
    },
  );

  const tags = ['masters'];
  /** Who may read a list, then the read models it reads; the repository reads. */
  const ready = async (request: FastifyRequest) => {
    const me = signedIn(request);
    await readAfterClientPosition(deps, request, MASTER_READS);
    return me;
  };
  const schema = <A extends z.ZodType>(summary: string, answer: A) => ({
    schema: { summary, tags, querystring: listQuery, response: { 200: answer } },
  });

  api.get('/api/masters/cities', schema('Cities, a page', cityPage), async (request) => {
    await ready(request);
    return listCities(deps, request.query);
  });
  api.get('/api/masters/products', schema('Products, a page', productPage), async (request) => {
    await ready(request);
    return listProducts(deps, request.query);
  });
  api.get('/api/masters/users', schema('Users, a page (Admin)', userPage), async (request) => {
    const me = await ready(request);
    if (me.role !== 'Admin') throw new HttpError(403, `Your role (${me.role}) cannot see users.`);
    return listUsers(deps, request.query);
  });
  api.get(
    '/api/masters/custom-fields',
    schema('Custom field definitions', customFieldList),
    async (request) => {
      await ready(request);
      return listCustomFields(deps);
    },
  );
  for (const [kind, partyKind] of Object.entries(PARTY_KINDS)) {
    api.get(
      `/api/masters/${kind}`,
      {
        schema: {
          summary: `${kind[0]!.toUpperCase()}${kind.slice(1)} with their balances, a page`,
          tags,
          querystring: partyListQuery,
          response: { 200: partyPage },
        },
      },
      async (request) => {
        await ready(request);
        // Balances as the books stood on a business date (the master screens' 'as of' control).
        return listParties(deps, partyKind, request.query, { asOf: request.query.asOf });
      },
    );
  }
  // Any other kind: there is no such master list, once the filters are valid and the caller is
  // signed in (hidden from openapi.json: it only refuses).
  api.get(
    '/api/masters/:kind',
    { schema: { hide: true, params: z.object({ kind: z.string() }), querystring: listQuery, response: {} } },
    async (request) => {
      signedIn(request);
      throw new HttpError(404, `There is no master list called "${request.params.kind}".`);
    },
  );
}

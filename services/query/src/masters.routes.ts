import { cityPage, customFieldList, partyPage, productPage, userPage, userView } from '@bahi/contracts';
import { HttpError, signedIn, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { QueryDeps } from './deps.ts';
import { listParties, PARTY_KINDS } from './parties.repository.ts';
import { day, escapeLike } from './query-params.ts';
import { listQuery, readAfterClientPosition } from './reads.ts';

type ListQuery = z.infer<typeof listQuery>;

/** A party list also takes `asOf`: balances as the books stood on a business date. */
const partyListQuery = listQuery.extend({ asOf: day('asOf') });

export async function registerMasterListRoutes(app: FastifyInstance, deps: QueryDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/auth/profile',
    { schema: { summary: 'The signed-in user', tags: ['auth'], response: { 200: userView } } },
    async (request) => {
      const me = signedIn(request);
      await readAfterClientPosition(deps, request, ['masters']);
      const row = await deps.readDb
        .selectFrom('users')
        .select(['id', 'name', 'email', 'phone', 'role', 'is_active'])
        .where('id', '=', me.id)
        .executeTakeFirst();
      return (
        row ?? { id: me.id, name: me.name, email: me.email, phone: null, role: me.role, is_active: true }
      );
    },
  );

  /** One master list; a kind that is no list is a 404 once the filters are valid. */
  const list = async (
    kind: string,
    request: FastifyRequest,
    q: ListQuery & { asOf?: string | undefined },
  ) => {
    const me = signedIn(request);
    await readAfterClientPosition(deps, request, ['masters', 'journal', 'custom_field_definitions']);
    const page = <T>(rows: T[], total: number) => ({ data: rows, totalItems: total });
    const offset = q.limit === -1 ? 0 : (q.page - 1) * q.limit;
    const like = q.search ? `%${escapeLike(q.search)}%` : undefined;

    if (kind === 'cities' || kind === 'products') {
      const table = kind;
      let base = deps.readDb.selectFrom(table).where('deleted', '=', false);
      if (like) base = base.where('name', 'ilike', like);
      const total = Number(
        (await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n,
      );
      let rows = base.selectAll().orderBy('name').orderBy('id');
      if (q.limit !== -1) rows = rows.limit(q.limit).offset(offset);
      const data = (await rows.execute()).map((r) =>
        kind === 'cities'
          ? {
              id: r.id,
              name: r.name,
              currency_name: (r as { currency_name: string }).currency_name,
              rate: (r as { rate: string }).rate,
            }
          : { id: r.id, name: r.name },
      );
      return page(data, total);
    }

    if (kind === 'users') {
      if (me.role !== 'Admin') throw new HttpError(403, `Your role (${me.role}) cannot see users.`);
      let base = deps.readDb.selectFrom('users').where('deleted', '=', false);
      if (like) base = base.where((eb) => eb.or([eb('name', 'ilike', like), eb('email', 'ilike', like)]));
      const total = Number(
        (await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n,
      );
      let rows = base
        .select(['id', 'name', 'email', 'phone', 'role', 'is_active'])
        .orderBy('name')
        .orderBy('id');
      if (q.limit !== -1) rows = rows.limit(q.limit).offset(offset);
      return page(await rows.execute(), total);
    }

    if (kind === 'custom-fields') {
      // A plain list (spec section 7).
      return deps.readDb
        .selectFrom('custom_field_definitions')
        .select(['id', 'name', 'type', 'is_required', 'options', 'entity_types'])
        .where('deleted', '=', false)
        .orderBy('name')
        .execute();
    }

    const partyKind = Object.hasOwn(PARTY_KINDS, kind)
      ? PARTY_KINDS[kind as keyof typeof PARTY_KINDS]
      : undefined;
    if (!partyKind) throw new HttpError(404, `There is no master list called "${kind}".`);
    // Balances as the books stood on a business date (the master screens' 'as of' control).
    return listParties(deps, partyKind, q, { asOf: q.asOf });
  };

  const tags = ['masters'];
  const lists = [
    ['cities', 'Cities, a page', cityPage, listQuery],
    ['products', 'Products, a page', productPage, listQuery],
    ['users', 'Users, a page (Admin)', userPage, listQuery],
    ['custom-fields', 'Custom field definitions', customFieldList, listQuery],
    ...Object.keys(PARTY_KINDS).map(
      (kind) =>
        [
          kind,
          `${kind[0]!.toUpperCase()}${kind.slice(1)} with their balances, a page`,
          partyPage,
          partyListQuery,
        ] as const,
    ),
  ] as const;
  for (const [kind, summary, answer, querystring] of lists) {
    api.get(
      `/api/masters/${kind}`,
      { schema: { summary, tags, querystring, response: { 200: answer } } },
      async (request) => list(kind, request, request.query) as never,
    );
  }
  // Any other kind: there is no such master list (hidden from openapi.json: it only refuses).
  api.get(
    '/api/masters/:kind',
    { schema: { hide: true, params: z.object({ kind: z.string() }), querystring: listQuery, response: {} } },
    async (request) => list(request.params.kind, request, request.query),
  );
}

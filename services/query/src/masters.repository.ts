import type { CityRow, CustomFieldRow, ListQuery, ProductRow, UserView } from '@bahi/contracts';
import type { QueryDeps } from './deps.ts';
import { escapeLike } from './query-params.ts';

/**
 * The master lists' reads other than the parties' (parties.repository.ts): cities, products,
 * users, custom field definitions, and the signed-in user's profile (issue #19: SQL in
 * repository functions, not in route handlers).
 */

type Page<R> = { data: R[]; totalItems: number };

const offsetOf = (q: ListQuery) => (q.limit === -1 ? 0 : (q.page - 1) * q.limit);
const likeOf = (q: ListQuery) => (q.search ? `%${escapeLike(q.search)}%` : undefined);

/** The signed-in user as the users read model holds them (null until it has caught up). */
export async function readProfile(deps: QueryDeps, id: string): Promise<UserView | undefined> {
  return deps.readDb
    .selectFrom('users')
    .select(['id', 'name', 'email', 'phone', 'role', 'is_active'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listCities(deps: QueryDeps, q: ListQuery): Promise<Page<CityRow>> {
  const like = likeOf(q);
  let base = deps.readDb.selectFrom('cities').where('deleted', '=', false);
  if (like) base = base.where('name', 'ilike', like);
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n,
  );
  let rows = base.select(['id', 'name', 'currency_name', 'rate']).orderBy('name').orderBy('id');
  if (q.limit !== -1) rows = rows.limit(q.limit).offset(offsetOf(q));
  return { data: await rows.execute(), totalItems: total };
}

export async function listProducts(deps: QueryDeps, q: ListQuery): Promise<Page<ProductRow>> {
  const like = likeOf(q);
  let base = deps.readDb.selectFrom('products').where('deleted', '=', false);
  if (like) base = base.where('name', 'ilike', like);
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n,
  );
  let rows = base.select(['id', 'name']).orderBy('name').orderBy('id');
  if (q.limit !== -1) rows = rows.limit(q.limit).offset(offsetOf(q));
  return { data: await rows.execute(), totalItems: total };
}

/** Users by name or email (the route lets Admins only). */
export async function listUsers(deps: QueryDeps, q: ListQuery): Promise<Page<UserView>> {
  const like = likeOf(q);
  let base = deps.readDb.selectFrom('users').where('deleted', '=', false);
  if (like) base = base.where((eb) => eb.or([eb('name', 'ilike', like), eb('email', 'ilike', like)]));
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n,
  );
  let rows = base.select(['id', 'name', 'email', 'phone', 'role', 'is_active']).orderBy('name').orderBy('id');
  if (q.limit !== -1) rows = rows.limit(q.limit).offset(offsetOf(q));
  return { data: await rows.execute(), totalItems: total };
}

/** The custom field definitions, a plain list (spec section 7). */
export async function listCustomFields(deps: QueryDeps): Promise<CustomFieldRow[]> {
  return deps.readDb
    .selectFrom('custom_field_definitions')
    .select(['id', 'name', 'type', 'is_required', 'options', 'entity_types'])
    .where('deleted', '=', false)
    .orderBy('name')
    .execute();
}

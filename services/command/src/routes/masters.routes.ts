import { randomUUID } from 'node:crypto';
import {
  agentInput,
  cityInput,
  collectorInput,
  customFieldInput,
  funderInput,
  godownInput,
  productInput,
} from '@bahi/contracts';
import {
  DomainError,
  decideMaster,
  evolveMaster,
  initialMasterState,
  invalid,
  type MasterData,
  type MasterKind,
  type MasterState,
  masterStreamId,
  type Reference,
} from '@bahi/domain';
import { ProjectionBehindError, waitForProjections } from '@bahi/read-db';
import { HttpError, requireWriter, type WriteArea } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { CommandDeps } from '../deps.ts';
import { execute, loadStream, type StreamDecider } from '../execute.ts';
import { requestMeta } from '../request-meta.ts';

interface KindRoute {
  kind: Exclude<MasterKind, 'User'>;
  input: z.ZodType<Record<string, unknown>>;
  area: WriteArea;
}

/** The URL kinds of spec section 7 (users have their own routes). */
const KINDS: Record<string, KindRoute> = {
  cities: { kind: 'City', input: cityInput, area: 'masters' },
  products: { kind: 'Product', input: productInput, area: 'masters' },
  funders: { kind: 'Funder', input: funderInput, area: 'masters' },
  agents: { kind: 'Agent', input: agentInput, area: 'masters' },
  godowns: { kind: 'Godown', input: godownInput, area: 'masters' },
  collectors: { kind: 'Collector', input: collectorInput, area: 'masters' },
  'custom-fields': { kind: 'CustomFieldDefinition', input: customFieldInput, area: 'custom-fields' },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const masterDecider = <K extends MasterKind>(kind: K): StreamDecider<MasterState<K>> => ({
  initial: initialMasterState,
  evolve: (state, event) => evolveMaster(kind, state, event),
});

/** A domain refusal as the HTTP answer the UI shows (spec section 8's error shape). */
export function toHttp(error: unknown): never {
  if (error instanceof DomainError) {
    const status = { invalid: 400, not_found: 404, conflict: 409, forbidden: 403 }[error.kind];
    throw new HttpError(status, error.message, error.errors);
  }
  if (error instanceof ProjectionBehindError) {
    throw new HttpError(503, `${error.message} Please try again in a moment.`);
  }
  throw error;
}

export function routeKind(kind: string): KindRoute {
  // Own keys only: `constructor` or `__proto__` in the URL is no master list.
  const route = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined;
  if (!route) throw new HttpError(404, `There is no master list called "${kind}".`);
  return route;
}

export function recordId(id: string, label: string): string {
  if (!UUID.test(id)) throw new HttpError(404, `${label} not found.`);
  return id.toLowerCase();
}

/** A master a record points to must exist and not be deleted. */
export async function requireActive(
  deps: CommandDeps,
  kind: MasterKind,
  id: string,
  path: string,
): Promise<MasterData<typeof kind>> {
  const { state } = await loadStream(deps.eventStore, masterStreamId(kind, id), masterDecider(kind));
  if (state.status !== 'active') {
    const label = {
      City: 'City',
      Product: 'Product',
      Funder: 'Funder',
      Agent: 'Agent',
      Godown: 'Godown',
      Collector: 'Collector',
      User: 'User',
      CustomFieldDefinition: 'Custom field',
    }[kind];
    throw invalid(`${label} not found.`, [{ msg: `${label} not found`, path }]);
  }
  return state.data;
}

/** What refers to a master, from the master_references read model once it has caught up. */
export async function referencesTo(deps: CommandDeps, id: string): Promise<Reference[]> {
  await waitForProjections(deps.readDb, ['master_references'], await deps.eventStore.headPosition());
  const rows = await deps.readDb
    .selectFrom('master_references')
    .select(['source_kind'])
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('target_id', '=', id)
    .groupBy('source_kind')
    .execute();
  return rows.map((r) => ({ kind: r.source_kind, count: Number(r.count) }));
}

const LEDGER_PREFIX: Partial<Record<MasterKind, string>> = {
  Funder: 'funder',
  Agent: 'agent',
  Collector: 'collector',
};

/**
 * A funder's, agent's or collector's account is kept in its city's currency (ACCOUNTING.md
 * section 2): once it has postings, moving it to another city would mix two currencies in one
 * ledger. Refused with a 409; the journal is read once it has caught up with the log. Known gap,
 * as with deletes: a record written in the same instant can still post in the old city.
 */
async function refuseCityChangeWithPostings(
  deps: CommandDeps,
  kind: MasterKind,
  id: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const prefix = LEDGER_PREFIX[kind];
  if (!prefix || typeof fields.city_id !== 'string') return;
  const { state } = await loadStream(deps.eventStore, masterStreamId(kind, id), masterDecider(kind));
  if (state.status !== 'active') return; // the decider answers 404
  const current = state.data as { city_id?: string; name: string };
  if (current.city_id === fields.city_id) return;
  await waitForProjections(deps.readDb, ['journal'], await deps.eventStore.headPosition());
  const posted = await deps.readDb
    .selectFrom('account_totals')
    .select('account')
    .where('account', '=', `${prefix}:${id}`)
    .limit(1)
    .executeTakeFirst();
  if (posted)
    throw new DomainError(
      'conflict',
      `The city of ${current.name} cannot be changed: ${current.name} already has entries in its ledger, kept in that city's currency. Create a new ${kind.toLowerCase()} in the other city instead.`,
      [{ msg: `The city of ${current.name} cannot be changed once it has ledger entries`, path: 'city_id' }],
    );
}

async function checkReferencedMasters(deps: CommandDeps, data: Record<string, unknown>): Promise<void> {
  if (typeof data.city_id === 'string') await requireActive(deps, 'City', data.city_id, 'city_id');
}

export async function registerMasterRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  app.post<{ Params: { kind: string } }>('/api/masters/:kind', async (request, reply) => {
    const route = routeKind(request.params.kind);
    requireWriter(request, route.area);
    const fields = route.input.parse(request.body);
    const id = randomUUID();
    try {
      await checkReferencedMasters(deps, fields);
      const data = { id, ...fields } as MasterData<typeof route.kind>;
      const { position } = await execute(
        deps.eventStore,
        requestMeta(request),
        masterStreamId(route.kind, id),
        masterDecider(route.kind),
        (state) => decideMaster(route.kind, { type: 'Create', data }, state),
      );
      return reply.status(201).send({ id, position: position.toString() });
    } catch (error) {
      toHttp(error);
    }
  });

  app.put<{ Params: { kind: string; id: string } }>('/api/masters/:kind/:id', async (request, _reply) => {
    const route = routeKind(request.params.kind);
    requireWriter(request, route.area);
    const id = recordId(
      request.params.id,
      route.kind === 'CustomFieldDefinition' ? 'Custom field' : route.kind,
    );
    const fields = route.input.parse(request.body);
    try {
      await checkReferencedMasters(deps, fields);
      await refuseCityChangeWithPostings(deps, route.kind, id, fields);
      const data = { id, ...fields } as MasterData<typeof route.kind>;
      const { position } = await execute(
        deps.eventStore,
        requestMeta(request),
        masterStreamId(route.kind, id),
        masterDecider(route.kind),
        (state) => decideMaster(route.kind, { type: 'Update', data }, state),
      );
      return { id, position: position.toString() };
    } catch (error) {
      toHttp(error);
    }
  });

  app.delete<{ Params: { kind: string; id: string } }>('/api/masters/:kind/:id', async (request, _reply) => {
    const route = routeKind(request.params.kind);
    requireWriter(request, route.area);
    const id = recordId(
      request.params.id,
      route.kind === 'CustomFieldDefinition' ? 'Custom field' : route.kind,
    );
    try {
      const references = await referencesTo(deps, id);
      const { position } = await execute(
        deps.eventStore,
        requestMeta(request),
        masterStreamId(route.kind, id),
        masterDecider(route.kind),
        (state) => decideMaster(route.kind, { type: 'Delete', id, references }, state),
      );
      return { id, position: position.toString() };
    } catch (error) {
      toHttp(error);
    }
  });
}

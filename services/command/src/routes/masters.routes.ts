import {
  agentInput,
  cityInput,
  collectorInput,
  customFieldInput,
  funderInput,
  godownInput,
  productInput,
  writeAnswer,
} from '@bahi/contracts';
import {
  CITY_CURRENCY_ACCOUNTS,
  DomainError,
  invalid,
  type MasterData,
  type MasterKind,
  masterDecider,
  masterStreamId,
  type Reference,
} from '@bahi/domain';
import { waitForProjections } from '@bahi/read-db';
import { HttpError, type WriteArea, writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CommandDeps } from '../deps.ts';
import { execute, loadStream } from '../execute.ts';
import { requestMeta } from '../request-meta.ts';
import { holdExclusive, holdShared, masterLock, newRecordId } from '../write-scope.ts';
import { recordIdParams } from './params.ts';

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

/**
 * A master a record points to must exist and not be deleted. Read under a shared lock the request
 * holds until it has appended: a delete or a city change of this master waits for it (and then
 * sees its record), or went first (and then this read sees the change).
 */
export async function requireActive<K extends MasterKind>(
  deps: CommandDeps,
  kind: K,
  id: string,
  path: string,
): Promise<MasterData<K>> {
  await holdShared(masterLock(id));
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

/**
 * A funder's, agent's or collector's account is kept in its city's currency (ACCOUNTING.md
 * section 2): once it has postings, moving it to another city would mix two currencies in one
 * ledger. Refused with a 409. Decided under the party's exclusive lock: every request that read
 * the party (requireActive) has appended by then, so the journal, once it has caught up with the
 * head of the log, holds its postings; and none can read the party again until the change is in.
 */
async function refuseCityChangeWithPostings(
  deps: CommandDeps,
  kind: MasterKind,
  id: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const ledger = (CITY_CURRENCY_ACCOUNTS as Partial<Record<MasterKind, (id: string) => string>>)[kind];
  if (!ledger || typeof fields.city_id !== 'string') return;
  await holdExclusive(masterLock(id));
  const { state } = await loadStream(deps.eventStore, masterStreamId(kind, id), masterDecider(kind));
  if (state.status !== 'active') return; // the decider answers 404
  const current = state.data as { city_id?: string; name: string };
  if (current.city_id === fields.city_id) return;
  await waitForProjections(deps.readDb, ['journal'], await deps.eventStore.headPosition());
  const posted = await deps.readDb
    .selectFrom('account_totals')
    .select('account')
    .where('account', '=', ledger(id))
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
  const api = app.withTypeProvider<ZodTypeProvider>();
  // One route per kind, so each declares its own body; an unknown kind is a 404 below.
  for (const [path, route] of Object.entries(KINDS)) {
    const label = route.kind === 'CustomFieldDefinition' ? 'Custom field' : route.kind;
    const tags = ['masters'];
    api.post(
      `/api/masters/${path}`,
      {
        preValidation: writerOnly(route.area),
        schema: {
          summary: `Create a ${label.toLowerCase()}`,
          tags,
          body: route.input,
          response: { 201: writeAnswer },
        },
      },
      async (request, reply) => {
        const fields = request.body;
        const id = newRecordId();
        await checkReferencedMasters(deps, fields);
        const data = { id, ...fields } as MasterData<typeof route.kind>;
        const { position } = await execute(
          deps.eventStore,
          requestMeta(request),
          masterStreamId(route.kind, id),
          masterDecider(route.kind),
          { type: 'Create', data },
        );
        return reply.status(201).send({ id, position: position.toString() });
      },
    );

    api.put(
      `/api/masters/${path}/:id`,
      {
        preValidation: writerOnly(route.area),
        schema: {
          summary: `Change a ${label.toLowerCase()}`,
          tags,
          params: recordIdParams(label),
          body: route.input,
          response: { 200: writeAnswer },
        },
      },
      async (request) => {
        const { id } = request.params;
        const fields = request.body;
        await checkReferencedMasters(deps, fields);
        await refuseCityChangeWithPostings(deps, route.kind, id, fields);
        const data = { id, ...fields } as MasterData<typeof route.kind>;
        const { position } = await execute(
          deps.eventStore,
          requestMeta(request),
          masterStreamId(route.kind, id),
          masterDecider(route.kind),
          { type: 'Update', data },
        );
        return { id, position: position.toString() };
      },
    );

    api.delete(
      `/api/masters/${path}/:id`,
      {
        preValidation: writerOnly(route.area),
        schema: {
          summary: `Delete a ${label.toLowerCase()} that nothing refers to`,
          tags,
          params: recordIdParams(label),
          response: { 200: writeAnswer },
        },
      },
      async (request) => {
        const { id } = request.params;
        // Exclusive: no request that read this master is between its read and its append, so
        // the references (read once they have caught up with the log) include every one of them.
        await holdExclusive(masterLock(id));
        const references = await referencesTo(deps, id);
        const { position } = await execute(
          deps.eventStore,
          requestMeta(request),
          masterStreamId(route.kind, id),
          masterDecider(route.kind),
          { type: 'Delete', id, references },
        );
        return { id, position: position.toString() };
      },
    );
  }

  // Any other kind: there is no such master list (hidden from openapi.json: it only refuses).
  const unknownKind = {
    schema: {
      hide: true,
      params: z.object({ kind: z.string(), id: z.string().optional() }),
      response: { 404: z.object({ message: z.string() }) },
    },
  };
  const noSuchList = async (request: { params: { kind: string } }): Promise<never> => {
    throw new HttpError(404, `There is no master list called "${request.params.kind}".`);
  };
  api.post('/api/masters/:kind', unknownKind, noSuchList);
  api.put('/api/masters/:kind/:id', unknownKind, noSuchList);
  api.delete('/api/masters/:kind/:id', unknownKind, noSuchList);
}

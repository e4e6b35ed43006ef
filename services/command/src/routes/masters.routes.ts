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
import { HttpError, type WriteArea, writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CommandDeps } from '../deps.ts';
import { contextOf, written } from '../handlers/context.ts';
import * as masters from '../handlers/masters.ts';
import { recordIdParams } from './params.ts';

export interface KindRoute {
  kind: masters.MasterListKind;
  input: z.ZodType<Record<string, unknown>>;
  area: WriteArea;
}

/** The URL kinds of spec section 7 (users have their own routes). */
export const KINDS: Record<string, KindRoute> = {
  cities: { kind: 'City', input: cityInput, area: 'masters' },
  products: { kind: 'Product', input: productInput, area: 'masters' },
  funders: { kind: 'Funder', input: funderInput, area: 'masters' },
  agents: { kind: 'Agent', input: agentInput, area: 'masters' },
  godowns: { kind: 'Godown', input: godownInput, area: 'masters' },
  collectors: { kind: 'Collector', input: collectorInput, area: 'masters' },
  'custom-fields': { kind: 'CustomFieldDefinition', input: customFieldInput, area: 'custom-fields' },
};

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
        const { id, position } = await masters.createMaster(
          contextOf(deps, request),
          route.kind,
          request.body,
        );
        return reply.status(201).send(written(id, position));
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
        const ctx = contextOf(deps, request);
        const { id, position } = await masters.updateMaster(ctx, route.kind, request.params.id, request.body);
        return written(id, position);
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
        const { id, position } = await masters.deleteMaster(
          contextOf(deps, request),
          route.kind,
          request.params.id,
        );
        return written(id, position);
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

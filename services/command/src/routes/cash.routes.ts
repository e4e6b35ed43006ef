import {
  clearingPayoutInput,
  expenseInput,
  incomeInput,
  paymentInput,
  salaryPaymentInput,
  transferInput,
  writeAnswer,
} from '@bahi/contracts';
import {
  cashEntryDecider,
  cashEntryStreamId,
  GODOWN_CASH,
  inventoryDecider,
  inventoryStreamId,
  type MasterData,
  paymentDecider,
  paymentStreamId,
  requireOfCity,
  salaryCategory,
  salaryMonthDecider,
  salaryStreamId,
  transferDecider,
  transferStreamId,
} from '@bahi/domain';
import { writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { adjustmentOf } from '../adjustments.ts';
import type { CommandDeps } from '../deps.ts';
import { execute } from '../execute.ts';
import { requestMeta } from '../request-meta.ts';
import { newRecordId } from '../write-scope.ts';
import { requireActive } from './masters.routes.ts';
import { recordIdParams } from './params.ts';

/** A party of a city, with the city's rate and currency as facts for the decider. */
async function partyWithCity(
  deps: CommandDeps,
  kind: 'Funder' | 'Agent' | 'Collector',
  id: string,
  path: string,
) {
  const party = await requireActive(deps, kind, id, path);
  const city = await requireActive(deps, 'City', party.city_id, path);
  return { party, city: { rate: city.rate, currency: city.currency_name } };
}

export async function registerCashRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/transactions/payments',
    {
      preValidation: writerOnly('payments'),
      schema: {
        summary: 'Record a payment to a funder or from an agent',
        tags: ['cash'],
        body: paymentInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const { party, city } = await partyWithCity(
        deps,
        input.related_entity_type,
        input.related_entity_id,
        'related_entity_id',
      );
      if (input.collector_id) {
        requireOfCity(
          await requireActive(deps, 'Collector', input.collector_id, 'collector_id'),
          party.city_id,
          'Collector',
          'collector_id',
          'same',
        );
      }
      if (input.godown_id) await requireActive(deps, 'Godown', input.godown_id, 'godown_id');
      const id = newRecordId();
      const payment = {
        id,
        city_id: party.city_id,
        ...input,
        adjusts: await adjustmentOf(deps, input.adjusts),
      };
      const { position } = await execute(
        deps.eventStore,
        requestMeta(request),
        paymentStreamId(id),
        paymentDecider,
        { payment, city },
      );
      return reply.status(201).send({ id, position: position.toString() });
    },
  );

  api.post(
    '/api/transactions/clearing-payouts',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: "Pay out a godown's clearing charges",
        tags: ['cash'],
        body: clearingPayoutInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const godown = await requireActive(deps, 'Godown', input.godown_id, 'godown_id');
      await requireActive(deps, 'Godown', input.payer_entity_id, 'payer_entity_id');
      const id = newRecordId();
      const { position } = await execute(
        deps.eventStore,
        requestMeta(request),
        inventoryStreamId(input.godown_id),
        inventoryDecider,
        { type: 'PayOutClearing', payout: { id, ...input }, godownName: godown.name },
      );
      return reply.status(201).send({ id, position: position.toString() });
    },
  );

  api.post(
    '/api/transactions/salary-payments',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: "Pay a collector's salary for a month",
        tags: ['cash'],
        body: salaryPaymentInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const { party, city } = await partyWithCity(deps, 'Collector', input.collector_id, 'collector_id');
      // Asked for as a Collector, so the party is one (the union of kinds does not narrow).
      const collector = party as MasterData<'Collector'>;
      if (input.paid_from_entity_type === 'Collector') {
        requireOfCity(
          await requireActive(deps, 'Collector', input.paid_from_entity_id, 'paid_from_entity_id'),
          party.city_id,
          'The paying collector',
          'paid_from_entity_id',
          'same',
        );
      } else {
        await requireActive(deps, 'Godown', input.paid_from_entity_id, 'paid_from_entity_id');
      }
      const id = newRecordId();
      const payment = {
        ...input,
        amount: input.amount,
        id,
        city_id: party.city_id,
        category: input.category ?? salaryCategory(collector.name),
        handler_entity_id: input.handler_entity_id ?? null,
        payment_date: input.payment_date ?? new Date().toISOString().slice(0, 10),
      };
      const { position } = await execute(
        deps.eventStore,
        requestMeta(request),
        salaryStreamId(input.collector_id, input.year, input.month),
        salaryMonthDecider,
        { payment, salaryPerMonth: collector.salary_per_month, city, collectorName: collector.name },
      );
      return reply.status(201).send({ id, position: position.toString() });
    },
  );

  api.post(
    '/api/transactions/transfers',
    {
      preValidation: writerOnly('transfers'),
      schema: {
        summary: 'Transfer cash between collectors',
        tags: ['cash'],
        body: transferInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const from = await partyWithCity(deps, 'Collector', input.from_collector_id, 'from_collector_id');
      const to = await partyWithCity(deps, 'Collector', input.to_collector_id, 'to_collector_id');
      const id = newRecordId();
      const { position } = await execute(
        deps.eventStore,
        requestMeta(request),
        transferStreamId(id),
        transferDecider,
        {
          transfer: { id, ...input, adjusts: await adjustmentOf(deps, input.adjusts) },
          from: from.city,
          to: to.city,
        },
      );
      return reply.status(201).send({ id, position: position.toString() });
    },
  );

  for (const [kind, path] of [
    ['Expense', 'expenses'],
    ['Income', 'incomes'],
  ] as const) {
    const input = kind === 'Expense' ? expenseInput : incomeInput;
    const cashSide = (e: Record<string, unknown>) =>
      kind === 'Expense'
        ? {
            type: e.paid_from_entity_type as 'Collector' | 'Godown',
            id: e.paid_from_entity_id as string,
            path: 'paid_from_entity_id',
          }
        : {
            type: e.received_by_entity_type as 'Collector' | 'Godown',
            id: e.received_by_entity_id as string,
            path: 'received_by_entity_id',
          };

    /** The payer's (or receiver's) rate and currency: a collector of the entry's city, or a godown in INR. */
    const payerFacts = async (entry: Record<string, unknown> & { city_id: string }) => {
      await requireActive(deps, 'City', entry.city_id, 'city_id');
      const side = cashSide(entry);
      if (side.type === 'Godown') {
        await requireActive(deps, 'Godown', side.id, side.path);
        return GODOWN_CASH;
      }
      const { party, city } = await partyWithCity(deps, 'Collector', side.id, side.path);
      requireOfCity(party, entry.city_id, 'The collector', side.path, 'same');
      return city;
    };

    api.post(
      `/api/transactions/${path}`,
      {
        preValidation: writerOnly('transactions'),
        schema: {
          summary: `Record an ${kind.toLowerCase()}`,
          tags: ['cash'],
          body: input,
          response: { 201: writeAnswer },
        },
      },
      async (request, reply) => {
        const fields = request.body;
        const payer = await payerFacts(fields);
        const id = newRecordId();
        const entry = { id, ...fields, adjusts: await adjustmentOf(deps, fields.adjusts) } as never;
        const { position } = await execute(
          deps.eventStore,
          requestMeta(request),
          cashEntryStreamId(kind, id),
          cashEntryDecider(kind),
          { type: 'Record', entry, payer },
        );
        return reply.status(201).send({ id, position: position.toString() });
      },
    );

    api.put(
      `/api/transactions/${path}/:id`,
      {
        preValidation: writerOnly('transactions'),
        schema: {
          summary: `Change an ${kind.toLowerCase()}`,
          tags: ['cash'],
          params: recordIdParams(kind),
          body: input,
          response: { 200: writeAnswer },
        },
      },
      async (request) => {
        const { id } = request.params;
        const fields = request.body;
        const payer = await payerFacts(fields);
        const entry = { id, ...fields, adjusts: await adjustmentOf(deps, fields.adjusts, id) } as never;
        const { position } = await execute(
          deps.eventStore,
          requestMeta(request),
          cashEntryStreamId(kind, id),
          cashEntryDecider(kind),
          { type: 'Update', entry, payer },
        );
        return { id, position: position.toString() };
      },
    );

    api.delete(
      `/api/transactions/${path}/:id`,
      {
        preValidation: writerOnly('transactions'),
        schema: {
          summary: `Delete an ${kind.toLowerCase()}`,
          tags: ['cash'],
          params: recordIdParams(kind),
          response: { 200: writeAnswer },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { position } = await execute(
          deps.eventStore,
          requestMeta(request),
          cashEntryStreamId(kind, id),
          cashEntryDecider(kind),
          { type: 'Delete', id },
        );
        return { id, position: position.toString() };
      },
    );
  }
}

import {
  type AdjustmentRef,
  bulkSaleInput,
  bulkWriteAnswer,
  type EventData,
  type PurchaseInput,
  purchaseInput,
  purchaseReturnInput,
  saleInput,
  saleReturnInput,
  writeAnswer,
} from '@bahi/contracts';
import {
  type CustomFieldEntity,
  checkCustomFields,
  DomainError,
  directPurchaseDecider,
  directPurchaseStreamId,
  type InventoryCommand,
  inventoryDecider,
  inventoryStreamId,
  notFound,
  requireOfCity,
} from '@bahi/domain';
import { waitForProjections } from '@bahi/read-db';
import { clientPosition, writerOnly, type ZodTypeProvider } from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { adjustmentOf } from '../adjustments.ts';
import { definitionsCurrentAt } from '../definitions-current.ts';
import type { CommandDeps } from '../deps.ts';
import { execute } from '../execute.ts';
import { requestMeta } from '../request-meta.ts';
import { newRecordId } from '../write-scope.ts';
import { requireActive } from './masters.routes.ts';
import { recordIdParams } from './params.ts';

/** The stream that holds a purchase or a sale, once the locator has seen the whole log. */
async function locate(deps: CommandDeps, kind: 'Purchase' | 'Sale', id: string): Promise<string> {
  const find = () =>
    deps.readDb
      .selectFrom('record_streams')
      .select('stream_id')
      .where('record_id', '=', id)
      .where('kind', '=', kind)
      .executeTakeFirst();
  let row = await find();
  if (!row) {
    await waitForProjections(deps.readDb, ['record_streams'], await deps.eventStore.headPosition());
    row = await find();
  }
  if (!row) throw notFound(`${kind} not found.`);
  return row.stream_id;
}

/**
 * Custom field values checked against the definitions that apply, as the read model has
 * them once it has reached the position the client last wrote (so a definition the user
 * just made is always known). A field the read model still does not know is worth waiting
 * for the head of the log; waiting for the head on every write would make busy writers chase
 * a head that keeps moving.
 */
export async function customFields(
  deps: CommandDeps,
  entity: CustomFieldEntity,
  values: Record<string, unknown>,
  seen?: bigint,
) {
  const definitions = () =>
    deps.readDb
      .selectFrom('custom_field_definitions')
      .select(['id', 'name', 'type', 'is_required', 'options', 'entity_types'])
      .where('deleted', '=', false)
      .execute();
  if (seen !== undefined) await definitionsCurrentAt(deps, seen);
  const known = await definitions();
  if (Object.keys(values).every((key) => known.some((d) => d.id === key))) {
    return checkCustomFields(entity, values, known);
  }
  await waitForProjections(deps.readDb, ['custom_field_definitions'], await deps.eventStore.headPosition());
  return checkCustomFields(entity, values, await definitions());
}

async function agentCity(deps: CommandDeps, agentId: string, path: string) {
  const agent = await requireActive(deps, 'Agent', agentId, path);
  const city = await requireActive(deps, 'City', agent.city_id, path);
  return { id: agent.city_id, rate: city.rate, currency: city.currency_name };
}

export async function registerTransactionRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  /** The masters a purchase names must exist and belong to its city; answers the city's rate. */
  const purchaseFacts = async (input: PurchaseInput) => {
    const city = await requireActive(deps, 'City', input.city_id, 'city_id');
    requireOfCity(
      await requireActive(deps, 'Funder', input.funder_id, 'funder_id'),
      input.city_id,
      'Funder',
      'funder_id',
    );
    await requireActive(deps, 'Product', input.product_id, 'product_id');
    if (input.godown_id) await requireActive(deps, 'Godown', input.godown_id, 'godown_id');
    if (input.collector_id) {
      requireOfCity(
        await requireActive(deps, 'Collector', input.collector_id, 'collector_id'),
        input.city_id,
        'Collector',
        'collector_id',
      );
    }
    if (input.agent_id) {
      requireOfCity(
        await requireActive(deps, 'Agent', input.agent_id, 'agent_id'),
        input.city_id,
        'Agent',
        'agent_id',
      );
    }
    return { rate: city.rate, currency: city.currency_name };
  };

  api.post(
    '/api/transactions/purchases',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: 'Record a purchase',
        tags: ['transactions'],
        body: purchaseInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const cityFacts = await purchaseFacts(input);
      const id = newRecordId();
      const purchase: EventData<'PurchaseRecorded'>['purchase'] = {
        id,
        ...input,
        custom_fields: await customFields(deps, 'Purchase', input.custom_fields, clientPosition(request)),
        adjusts: await adjustmentOf(deps, input.adjusts),
      };
      const meta = requestMeta(request);
      const { position } =
        input.type === 'Godown'
          ? await execute(deps.eventStore, meta, inventoryStreamId(input.godown_id!), inventoryDecider, {
              type: 'RecordPurchase',
              purchase,
              city: cityFacts,
            })
          : await execute(deps.eventStore, meta, directPurchaseStreamId(id), directPurchaseDecider, {
              type: 'RecordPurchase',
              purchase,
              city: cityFacts,
            });
      return reply.status(201).send({ id, position: position.toString() });
    },
  );

  api.put(
    '/api/transactions/purchases/:id',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: 'Change a purchase',
        tags: ['transactions'],
        params: recordIdParams('Purchase'),
        body: purchaseInput,
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const { id } = request.params;
      const input = request.body;
      const streamId = await locate(deps, 'Purchase', id);
      const city = await purchaseFacts(input);
      const purchase: EventData<'PurchaseRecorded'>['purchase'] = {
        id,
        ...input,
        custom_fields: await customFields(deps, 'Purchase', input.custom_fields, clientPosition(request)),
        adjusts: await adjustmentOf(deps, input.adjusts, id),
      };
      const meta = requestMeta(request);
      const { position } = streamId.startsWith('inventory-')
        ? await execute(deps.eventStore, meta, streamId, inventoryDecider, {
            type: 'UpdatePurchase',
            purchase,
            city,
          })
        : await execute(deps.eventStore, meta, streamId, directPurchaseDecider, {
            type: 'UpdatePurchase',
            purchase,
            city,
          });
      return { id, position: position.toString() };
    },
  );

  api.delete(
    '/api/transactions/purchases/:id',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: 'Delete a purchase',
        tags: ['transactions'],
        params: recordIdParams('Purchase'),
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const { id } = request.params;
      const streamId = await locate(deps, 'Purchase', id);
      const meta = requestMeta(request);
      const { position } = streamId.startsWith('inventory-')
        ? await execute(deps.eventStore, meta, streamId, inventoryDecider, { type: 'DeletePurchase', id })
        : await execute(deps.eventStore, meta, streamId, directPurchaseDecider, {
            type: 'DeletePurchase',
            id,
          });
      return { id, position: position.toString() };
    },
  );

  const recordSales = async (
    meta: ReturnType<typeof requestMeta>,
    common: {
      sale_date: string;
      godown_id: string;
      product_id: string;
      custom_fields?: Record<string, unknown>;
      adjusts?: AdjustmentRef | undefined;
    },
    rows: Array<{ agent_id: string; rate: string; quantity: string; clearing_charge: string }>,
  ) => {
    const product = await requireActive(deps, 'Product', common.product_id, 'product_id');
    const godown = await requireActive(deps, 'Godown', common.godown_id, 'godown_id');
    const sales: Extract<InventoryCommand, { type: 'RecordSales' }>['sales'] = [];
    for (const [index, row] of rows.entries()) {
      const path = rows.length === 1 ? 'agent_id' : `sales.${index}.agent_id`;
      sales.push({
        sale: {
          id: newRecordId(),
          sale_date: common.sale_date,
          agent_id: row.agent_id,
          product_id: common.product_id,
          godown_id: common.godown_id,
          rate: row.rate,
          quantity: row.quantity,
          clearing_charge: row.clearing_charge,
          custom_fields: common.custom_fields ?? {},
          ...(common.adjusts ? { adjusts: common.adjusts } : {}),
        },
        agentCity: await agentCity(deps, row.agent_id, path),
      });
    }
    const { position } = await execute(
      deps.eventStore,
      meta,
      inventoryStreamId(common.godown_id),
      inventoryDecider,
      { type: 'RecordSales', sales, labels: { product: product.name, godown: godown.name } },
    );
    return { ids: sales.map((s) => s.sale.id), position };
  };

  api.post(
    '/api/transactions/sales',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: 'Record a sale',
        tags: ['transactions'],
        body: saleInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const fields = await customFields(deps, 'Sale', input.custom_fields, clientPosition(request));
      const adjusts = await adjustmentOf(deps, input.adjusts);
      const { ids, position } = await recordSales(
        requestMeta(request),
        { ...input, custom_fields: fields, adjusts },
        [input],
      );
      return reply.status(201).send({ id: ids[0]!, position: position.toString() });
    },
  );

  api.put(
    '/api/transactions/sales/:id',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: 'Change a sale',
        tags: ['transactions'],
        params: recordIdParams('Sale'),
        body: saleInput,
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const { id } = request.params;
      const input = request.body;
      const streamId = await locate(deps, 'Sale', id);
      const product = await requireActive(deps, 'Product', input.product_id, 'product_id');
      const godown = await requireActive(deps, 'Godown', input.godown_id, 'godown_id');
      const sale = {
        id,
        sale_date: input.sale_date,
        agent_id: input.agent_id,
        product_id: input.product_id,
        godown_id: input.godown_id,
        rate: input.rate,
        quantity: input.quantity,
        clearing_charge: input.clearing_charge,
        custom_fields: await customFields(deps, 'Sale', input.custom_fields, clientPosition(request)),
        adjusts: await adjustmentOf(deps, input.adjusts, id),
      };
      const city = await agentCity(deps, input.agent_id, 'agent_id');
      const { position } = await execute(deps.eventStore, requestMeta(request), streamId, inventoryDecider, {
        type: 'UpdateSale',
        sale,
        agentCity: city,
        labels: { product: product.name, godown: godown.name },
      });
      return { id, position: position.toString() };
    },
  );

  api.delete(
    '/api/transactions/sales/:id',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: 'Delete a sale',
        tags: ['transactions'],
        params: recordIdParams('Sale'),
        response: { 200: writeAnswer },
      },
    },
    async (request) => {
      const { id } = request.params;
      const streamId = await locate(deps, 'Sale', id);
      const { position } = await execute(deps.eventStore, requestMeta(request), streamId, inventoryDecider, {
        type: 'DeleteSale',
        id,
      });
      return { id, position: position.toString() };
    },
  );

  api.post(
    '/api/transactions/sales/bulk',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: 'Record several sales of one product from one godown at once',
        tags: ['transactions'],
        body: bulkSaleInput,
        response: { 201: bulkWriteAnswer },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const { ids, position } = await recordSales(requestMeta(request), input.common, input.sales).catch(
        (error: unknown) => {
          // The rows share the common date: a refusal of it (the period close) points there.
          if (!(error instanceof DomainError) || !error.errors) throw error;
          const errors = error.errors.map((e) =>
            e.path === 'sale_date' ? { ...e, path: 'common.sale_date' } : e,
          );
          throw new DomainError(error.kind, error.message, errors);
        },
      );
      return reply.status(201).send({ ids, count: ids.length, position: position.toString() });
    },
  );

  api.post(
    '/api/transactions/purchase-returns',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: 'Record a return of purchased goods',
        tags: ['transactions'],
        body: purchaseReturnInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const streamId = await locate(deps, 'Purchase', input.purchase_id);
      const purchaseReturn = {
        id: newRecordId(),
        ...input,
        custom_fields: await customFields(
          deps,
          'PurchaseReturn',
          input.custom_fields,
          clientPosition(request),
        ),
      };
      const meta = requestMeta(request);
      const { position } = streamId.startsWith('inventory-')
        ? await execute(deps.eventStore, meta, streamId, inventoryDecider, {
            type: 'ReturnPurchase',
            purchaseReturn,
          })
        : await execute(deps.eventStore, meta, streamId, directPurchaseDecider, {
            type: 'ReturnPurchase',
            purchaseReturn,
          });
      return reply.status(201).send({ id: purchaseReturn.id, position: position.toString() });
    },
  );

  api.post(
    '/api/transactions/sale-returns',
    {
      preValidation: writerOnly('transactions'),
      schema: {
        summary: 'Record a return of sold goods',
        tags: ['transactions'],
        body: saleReturnInput,
        response: { 201: writeAnswer },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const streamId = await locate(deps, 'Sale', input.sale_id);
      const saleReturn = {
        id: newRecordId(),
        ...input,
        custom_fields: await customFields(deps, 'SaleReturn', input.custom_fields, clientPosition(request)),
      };
      const { position } = await execute(deps.eventStore, requestMeta(request), streamId, inventoryDecider, {
        type: 'ReturnSale',
        saleReturn,
      });
      return reply.status(201).send({ id: saleReturn.id, position: position.toString() });
    },
  );
}

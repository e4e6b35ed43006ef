import type { AdjustmentRef, BulkSaleInput, EventData, SaleInput, SaleReturnInput } from '@bahi/contracts';
import { DomainError, type InventoryCommand, inventoryDecider, inventoryStreamId } from '@bahi/domain';
import { adjustmentOf } from '../adjustments.ts';
import { execute } from '../execute.ts';
import { newRecordId } from '../write-scope.ts';
import type { HandlerContext } from './context.ts';
import { agentCity, customFields, locate, requireActive } from './look-ups.ts';

/** Sales (spec section 5): a sale lives in its godown's inventory stream, beside the stock it moves. */

interface SaleRow {
  agent_id: string;
  rate: string;
  quantity: string;
  clearing_charge: string;
}

/** A sale as its events record it (the fields in the order the events keep them). */
export function saleRecord(
  id: string,
  fields: SaleRow & { sale_date: string; product_id: string; godown_id: string },
  customFields: Record<string, unknown>,
  adjusts?: AdjustmentRef,
): EventData<'SaleRecorded'>['sale'] {
  return {
    id,
    sale_date: fields.sale_date,
    agent_id: fields.agent_id,
    product_id: fields.product_id,
    godown_id: fields.godown_id,
    rate: fields.rate,
    quantity: fields.quantity,
    clearing_charge: fields.clearing_charge,
    custom_fields: customFields,
    ...(adjusts ? { adjusts } : {}),
  };
}

/** One sale, or a bulk sale's rows: all recorded in one decision, or none. */
async function recordSales(
  ctx: HandlerContext,
  common: {
    sale_date: string;
    godown_id: string;
    product_id: string;
    custom_fields?: Record<string, unknown>;
    adjusts?: AdjustmentRef | undefined;
  },
  rows: SaleRow[],
) {
  const { deps } = ctx;
  const product = await requireActive(deps, 'Product', common.product_id, 'product_id');
  const godown = await requireActive(deps, 'Godown', common.godown_id, 'godown_id');
  const sales: Extract<InventoryCommand, { type: 'RecordSales' }>['sales'] = [];
  for (const [index, row] of rows.entries()) {
    const path = rows.length === 1 ? 'agent_id' : `sales.${index}.agent_id`;
    sales.push({
      sale: saleRecord(newRecordId(), { ...common, ...row }, common.custom_fields ?? {}, common.adjusts),
      agentCity: await agentCity(deps, row.agent_id, path),
    });
  }
  const { position } = await execute(
    deps.eventStore,
    ctx.meta,
    inventoryStreamId(common.godown_id),
    inventoryDecider,
    {
      type: 'RecordSales',
      sales,
      labels: { product: product.name, godown: godown.name },
    },
  );
  return { ids: sales.map((s) => s.sale.id), position };
}

export async function recordSale(ctx: HandlerContext, input: SaleInput) {
  const fields = await customFields(ctx.deps, 'Sale', input.custom_fields, ctx.seen);
  const adjusts = await adjustmentOf(ctx.deps, input.adjusts);
  const { ids, position } = await recordSales(ctx, { ...input, custom_fields: fields, adjusts }, [input]);
  return { id: ids[0]!, position };
}

export async function recordBulkSales(ctx: HandlerContext, input: BulkSaleInput) {
  return recordSales(ctx, input.common, input.sales).catch((error: unknown) => {
    // The rows share the common date: a refusal of it (the period close) points there.
    if (!(error instanceof DomainError) || !error.errors) throw error;
    const errors = error.errors.map((e) => (e.path === 'sale_date' ? { ...e, path: 'common.sale_date' } : e));
    throw new DomainError(error.kind, error.message, errors);
  });
}

export async function updateSale(ctx: HandlerContext, id: string, input: SaleInput) {
  const { deps } = ctx;
  const streamId = await locate(deps, 'Sale', id);
  const product = await requireActive(deps, 'Product', input.product_id, 'product_id');
  const godown = await requireActive(deps, 'Godown', input.godown_id, 'godown_id');
  const sale = saleRecord(
    id,
    input,
    await customFields(deps, 'Sale', input.custom_fields, ctx.seen),
    await adjustmentOf(deps, input.adjusts, id),
  );
  const city = await agentCity(deps, input.agent_id, 'agent_id');
  const { position } = await execute(deps.eventStore, ctx.meta, streamId, inventoryDecider, {
    type: 'UpdateSale',
    sale,
    agentCity: city,
    labels: { product: product.name, godown: godown.name },
  });
  return { id, position };
}

export async function deleteSale(ctx: HandlerContext, id: string) {
  const streamId = await locate(ctx.deps, 'Sale', id);
  const { position } = await execute(ctx.deps.eventStore, ctx.meta, streamId, inventoryDecider, {
    type: 'DeleteSale',
    id,
  });
  return { id, position };
}

export async function returnSale(ctx: HandlerContext, input: SaleReturnInput) {
  const streamId = await locate(ctx.deps, 'Sale', input.sale_id);
  const saleReturn = {
    id: newRecordId(),
    ...input,
    custom_fields: await customFields(ctx.deps, 'SaleReturn', input.custom_fields, ctx.seen),
  };
  const { position } = await execute(ctx.deps.eventStore, ctx.meta, streamId, inventoryDecider, {
    type: 'ReturnSale',
    saleReturn,
  });
  return { id: saleReturn.id, position };
}

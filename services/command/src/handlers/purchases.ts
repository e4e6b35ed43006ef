import type { EventData, PurchaseInput, PurchaseReturnInput } from '@bahi/contracts';
import {
  directPurchaseDecider,
  directPurchaseStreamId,
  type InventoryCommand,
  inventoryDecider,
  inventoryStreamId,
  requireOfCity,
} from '@bahi/domain';
import { adjustmentOf } from '../adjustments.ts';
import { execute } from '../execute.ts';
import { newRecordId } from '../write-scope.ts';
import type { HandlerContext } from './context.ts';
import { customFields, locate, requireActive } from './look-ups.ts';

/**
 * Purchases (spec section 5): into a godown, a purchase lives in that godown's inventory stream;
 * a direct purchase (to a collector or an agent) in a stream of its own. Each handler gathers
 * the facts its decision needs and runs it through `execute()`.
 */

type PurchaseCommand = Extract<
  InventoryCommand,
  { type: 'RecordPurchase' | 'UpdatePurchase' | 'DeletePurchase' | 'ReturnPurchase' }
>;

/** Decides a purchase's command on its stream, with the decider that stream is kept by. */
function onPurchaseStream(ctx: HandlerContext, streamId: string, command: PurchaseCommand) {
  return streamId.startsWith('inventory-')
    ? execute(ctx.deps.eventStore, ctx.meta, streamId, inventoryDecider, command)
    : execute(ctx.deps.eventStore, ctx.meta, streamId, directPurchaseDecider, command);
}

/** The masters a purchase names must exist and belong to its city; answers the city's rate. */
async function purchaseFacts(ctx: HandlerContext, input: PurchaseInput) {
  const { deps } = ctx;
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
}

async function purchaseOf(
  ctx: HandlerContext,
  id: string,
  input: PurchaseInput,
): Promise<EventData<'PurchaseRecorded'>['purchase']> {
  return {
    id,
    ...input,
    custom_fields: await customFields(ctx.deps, 'Purchase', input.custom_fields, ctx.seen),
    adjusts: await adjustmentOf(ctx.deps, input.adjusts, id),
  };
}

export async function recordPurchase(ctx: HandlerContext, input: PurchaseInput) {
  const city = await purchaseFacts(ctx, input);
  const id = newRecordId();
  const purchase = await purchaseOf(ctx, id, input);
  const streamId = input.type === 'Godown' ? inventoryStreamId(input.godown_id!) : directPurchaseStreamId(id);
  const { position } = await onPurchaseStream(ctx, streamId, { type: 'RecordPurchase', purchase, city });
  return { id, position };
}

export async function updatePurchase(ctx: HandlerContext, id: string, input: PurchaseInput) {
  const streamId = await locate(ctx.deps, 'Purchase', id);
  const city = await purchaseFacts(ctx, input);
  const purchase = await purchaseOf(ctx, id, input);
  const { position } = await onPurchaseStream(ctx, streamId, { type: 'UpdatePurchase', purchase, city });
  return { id, position };
}

export async function deletePurchase(ctx: HandlerContext, id: string) {
  const streamId = await locate(ctx.deps, 'Purchase', id);
  const { position } = await onPurchaseStream(ctx, streamId, { type: 'DeletePurchase', id });
  return { id, position };
}

export async function returnPurchase(ctx: HandlerContext, input: PurchaseReturnInput) {
  const streamId = await locate(ctx.deps, 'Purchase', input.purchase_id);
  const purchaseReturn = {
    id: newRecordId(),
    ...input,
    custom_fields: await customFields(ctx.deps, 'PurchaseReturn', input.custom_fields, ctx.seen),
  };
  const { position } = await onPurchaseStream(ctx, streamId, { type: 'ReturnPurchase', purchaseReturn });
  return { id: purchaseReturn.id, position };
}

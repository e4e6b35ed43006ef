import { randomUUID } from 'node:crypto';
import type { DomainEvent, PurchaseInput } from '@bahi/contracts';
import {
  directPurchaseDecider,
  directPurchaseStreamId,
  type InventoryState,
  inventoryDecider,
  inventoryStreamId,
  requireOfCity,
} from '@bahi/domain';
import { type DecidedRecord, requireRecordable, rowTotal, type TransactionRow } from './transaction-row.ts';

/**
 * One row's purchase decided as POST /api/transactions/purchases decides it (throws the
 * decider's or the close's refusal): on the godown's inventory stream, or a new direct-purchase
 * stream. On success a godown's folded state has the row's events applied, so the next row sees its stock.
 */
export async function decidePurchase({
  input,
  city,
  parties,
  facts,
}: TransactionRow<PurchaseInput>): Promise<DecidedRecord> {
  // The handler's look-ups (purchaseFacts): a party named by id must be of the row's city.
  requireOfCity(parties('funder_id'), input.city_id, 'Funder', 'funder_id');
  if (input.collector_id) requireOfCity(parties('collector_id'), input.city_id, 'Collector', 'collector_id');
  if (input.agent_id) requireOfCity(parties('agent_id'), input.city_id, 'Agent', 'agent_id');
  const id = randomUUID();
  // As the handler builds it (purchaseOf): the custom fields checked against their definitions;
  // not an adjustment (adjustmentOf answers undefined, left out of the event).
  const purchase = {
    id,
    ...input,
    custom_fields: facts.customFields(input.custom_fields),
    adjusts: undefined,
  };
  const cityFacts = { rate: city!.rate ?? '0', currency: city!.currency_name };
  const command = { type: 'RecordPurchase' as const, purchase, city: cityFacts };
  let events: DomainEvent[];
  let streamId: string;
  let expected: bigint | 'no_stream' = 'no_stream';
  let state: InventoryState | undefined;
  if (input.type === 'Godown') {
    streamId = inventoryStreamId(input.godown_id!);
    const loaded = await facts.inventory(streamId);
    state = loaded.state;
    expected = loaded.version;
    events = inventoryDecider.decide(command, state);
  } else {
    streamId = directPurchaseStreamId(id);
    events = directPurchaseDecider.decide(command, directPurchaseDecider.initialState());
  }
  requireRecordable(events, facts.closedUpTo);
  if (state) for (const event of events) inventoryDecider.evolve(state, event);
  const amount = rowTotal(input);
  return {
    id,
    streamId,
    expected,
    events,
    data: purchase,
    amount,
    currency: city!.currency_name,
    rateCity: city,
  };
}

import { randomUUID } from 'node:crypto';
import type { DomainEvent, SaleInput } from '@bahi/contracts';
import { conflict, DomainError, inventoryDecider, inventoryStreamId, requireOfCity } from '@bahi/domain';
import { saleRecord } from '../handlers/sales.ts';
import {
  cityOf,
  type DecidedRecord,
  requireRecordable,
  rowTotal,
  type TransactionRow,
} from './transaction-row.ts';

/**
 * One row's sale decided as POST /api/transactions/sales decides it: a RecordSales of one sale
 * on the godown's inventory stream, folded as it stands plus the file's earlier rows (so a sale
 * needs the stock those rows leave), at the agent's city rate. A shortage is placed on the
 * Quantity cell; the message is the API's.
 */
export async function decideSale({
  input,
  city,
  parties,
  cities,
  facts,
}: TransactionRow<SaleInput>): Promise<DecidedRecord> {
  const agent = parties('agent_id');
  // The City column only narrows the look-up: an agent named by id must be of it too.
  if (city) requireOfCity(agent, city.id, 'Agent', 'agent_id');
  const agentCity = cityOf(agent, cities, 'agent_id');
  const id = randomUUID();
  // As recordSale builds it: the custom fields checked against their definitions; no adjustment
  // (the key is left out).
  const sale = saleRecord(id, input, facts.customFields(input.custom_fields));
  const streamId = inventoryStreamId(input.godown_id);
  const { state, version } = await facts.inventory(streamId);
  let events: DomainEvent[];
  try {
    events = inventoryDecider.decide(
      {
        type: 'RecordSales',
        sales: [
          {
            sale,
            agentCity: { id: agentCity.id, rate: agentCity.rate ?? '0', currency: agentCity.currency_name },
          },
        ],
        labels: { product: parties('product_id')?.name ?? '', godown: parties('godown_id')?.name ?? '' },
      },
      state,
    );
  } catch (error) {
    if (error instanceof DomainError && !error.errors && /^Not enough stock/.test(error.message))
      throw conflict(error.message, 'quantity');
    throw error;
  }
  requireRecordable(events, facts.closedUpTo);
  for (const event of events) inventoryDecider.evolve(state, event);
  return {
    id,
    streamId,
    expected: version,
    events,
    data: sale,
    amount: rowTotal(input),
    currency: agentCity.currency_name,
    rateCity: agentCity,
  };
}

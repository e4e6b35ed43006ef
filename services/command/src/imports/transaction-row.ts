import { type DomainEvent, parseEvent } from '@bahi/contracts';
import {
  AMOUNT_SCALE,
  add,
  type Dec,
  type InventoryState,
  invalid,
  lineTotal,
  parseDecimal,
  refuseClosedPeriod,
  requireStorable,
  zero,
} from '@bahi/domain';
import type { CityLookup, RefLookup } from './refs.ts';

/**
 * What deciding a transaction row shares (issue #31): each valid row is decided as its API route
 * decides one request - the handler's look-ups answered from the masters the check read, the
 * same decider on the same stream (a godown's inventory as it stands plus the file's earlier
 * rows, so the stock rules see them; or a new stream of the record's own) - then the period
 * close and the checks the append door applies. Nothing here writes.
 */

/** What deciding needs beyond the row: the books' close, custom fields, the godowns' stock. */
export interface BookFacts {
  closedUpTo: string | null;
  /**
   * A row's custom field values checked as the API checks them (checkCustomFields against the
   * definitions that apply): the values as stored, or the API's refusal (a DomainError whose
   * paths are `custom_fields.<id>`).
   */
  customFields(values: Record<string, unknown>): Record<string, string | boolean>;
  /** A godown's inventory stream folded as it stands (the same object on every call: rows evolve it). */
  inventory(streamId: string): Promise<{ state: InventoryState; version: bigint | 'no_stream' }>;
}

/** One row, read and past its request schema, with the masters it names. */
export interface TransactionRow<Input> {
  input: Input;
  /** The row's City cell, when the kind has one and it was filled. */
  city: CityLookup | undefined;
  /** The master a ref column named, by the API field it feeds. */
  parties(field: string): RefLookup | undefined;
  /** Every city by id: a party's city is where its rate comes from. */
  cities: ReadonlyMap<string, CityLookup>;
  facts: BookFacts;
}

export interface DecidedRecord {
  id: string;
  streamId: string;
  /** The version the stream's append expects (the stream as loaded, before the file's rows). */
  expected: bigint | 'no_stream';
  events: DomainEvent[];
  data: Record<string, unknown>;
  /** What the record moves, in `currency`: for the preview's totals. */
  amount: Dec;
  currency: string;
  /** The city whose rate the record was decided at: the commit checks it has not changed. */
  rateCity?: CityLookup;
}

/** The close guard and the append door's checks, as `execute` applies them to what a decider answers. */
export function requireRecordable(events: readonly DomainEvent[], closedUpTo: string | null): void {
  refuseClosedPeriod(events, new Map(), closedUpTo);
  for (const event of events) {
    parseEvent(event.type, event.data);
    requireStorable(event);
  }
}

/** A party's city, as the handler reads it from the party (partyWithCity, agentCity). */
export function cityOf(
  party: RefLookup | undefined,
  cities: ReadonlyMap<string, CityLookup>,
  path: string,
): CityLookup {
  const city = party?.city_id ? cities.get(party.city_id) : undefined;
  if (!city) throw invalid('City not found.', [{ msg: 'City not found', path }]);
  return city;
}

/** The rows' amounts per currency, as the preview's totals show them. */
export function addAmount(totals: Map<string, { records: number; sum: Dec }>, currency: string, amount: Dec) {
  const total = totals.get(currency) ?? { records: 0, sum: zero(AMOUNT_SCALE) };
  total.records++;
  total.sum = add(total.sum, amount);
  totals.set(currency, total);
}

/** Rate x quantity of a purchase or sale row, as its total shows it. */
export const rowTotal = (row: { rate: string; quantity: string }): Dec =>
  lineTotal(parseDecimal(row.quantity), parseDecimal(row.rate));

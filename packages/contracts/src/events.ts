import { z } from 'zod';
import { CUSTOM_FIELD_ENTITY_TYPES, CUSTOM_FIELD_TYPES, ROLES } from './masters.ts';

/**
 * Persisted events: a contract with the past. A shipped schema is never edited; a change is
 * a new version with an upcaster. Decimals are exact strings at their scale; dates are
 * business dates (YYYY-MM-DD). Field names follow the API (spec section 3).
 */
const text = z.string();
const nullableText = z.string().nullable();
const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const cityData = z.object({ id: z.uuid(), name: text, currency_name: text, rate: decimal });
const productData = z.object({ id: z.uuid(), name: text });
const party = {
  id: z.uuid(),
  name: text,
  joining_date: date.nullable(),
  address: nullableText,
  narration: nullableText,
  phone: nullableText,
  opening_balance: decimal,
};
const funderData = z.object({ ...party, city_id: z.uuid() });
const agentData = z.object({ ...party, city_id: z.uuid() });
const godownData = z.object(party);
const collectorData = z.object({ ...party, city_id: z.uuid(), salary_per_month: decimal });
const userData = z.object({
  id: z.uuid(),
  name: text,
  email: text,
  phone: nullableText,
  role: z.enum(ROLES),
  is_active: z.boolean(),
});
const customFieldData = z.object({
  id: z.uuid(),
  name: text,
  type: z.enum(CUSTOM_FIELD_TYPES),
  is_required: z.boolean(),
  options: z.array(text).nullable(),
  entity_types: z.array(z.enum(CUSTOM_FIELD_ENTITY_TYPES)),
});
const deleted = z.object({ id: z.uuid() });

/**
 * One line of double entry, carried by the event that caused it (ACCOUNTING.md section 4).
 * amount: signed in the account's currency (+ debit, - credit); inr: its INR value at the
 * event's rate snapshot; quantity: units, for stock accounts. An event's inr values sum to 0.
 */
const posting = z.object({
  account: text,
  currency: text,
  amount: decimal,
  inr: decimal,
  quantity: decimal.optional(),
});
export type Posting = z.infer<typeof posting>;

/** Units and INR value a record moved in or out of a godown's stock of one product. */
const stockMove = z.object({ product_id: z.uuid(), quantity: decimal, value: decimal });

const purchaseRecord = z.object({
  id: z.uuid(),
  type: z.enum(['Godown', 'Direct']),
  purchase_date: date,
  city_id: z.uuid(),
  funder_id: z.uuid(),
  product_id: z.uuid(),
  godown_id: z.uuid().nullable(),
  collector_id: z.uuid().nullable(),
  agent_id: z.uuid().nullable(),
  rate: decimal,
  quantity: decimal,
  paid_amount: decimal,
  commission: decimal,
  custom_fields: z.record(z.string(), z.unknown()),
});
const saleRecord = z.object({
  id: z.uuid(),
  sale_date: date,
  agent_id: z.uuid(),
  product_id: z.uuid(),
  godown_id: z.uuid(),
  rate: decimal,
  quantity: decimal,
  clearing_charge: decimal,
  custom_fields: z.record(z.string(), z.unknown()),
});
const returnFields = { id: z.uuid(), quantity: decimal, return_date: date, remarks: nullableText };
const purchaseReturnRecord = z.object({ ...returnFields, purchase_id: z.uuid() });
const saleReturnRecord = z.object({ ...returnFields, sale_id: z.uuid() });

function masterEvents<K extends string, S extends z.ZodType>(kind: K, data: S) {
  return {
    [`${kind}Created`]: { version: 1, schema: data },
    [`${kind}Updated`]: { version: 1, schema: data },
    [`${kind}Deleted`]: { version: 1, schema: deleted },
  } as Record<`${K}${'Created' | 'Updated'}`, { version: 1; schema: S }> &
    Record<`${K}Deleted`, { version: 1; schema: typeof deleted }>;
}

export const eventSchemas = {
  ...masterEvents('City', cityData),
  ...masterEvents('Product', productData),
  ...masterEvents('Funder', funderData),
  ...masterEvents('Agent', agentData),
  ...masterEvents('Godown', godownData),
  ...masterEvents('Collector', collectorData),
  ...masterEvents('User', userData),
  ...masterEvents('CustomFieldDefinition', customFieldData),
  /** The password changed; the hash itself is never in an event. */
  UserPasswordChanged: { version: 1, schema: z.object({ id: z.uuid() }) },
  /** An email address claimed by a user, in the email's reservation stream. */
  UserEmailReserved: { version: 1, schema: z.object({ email: text, user_id: z.uuid() }) },
  /** A purchase; Godown type in its godown's inventory stream, Direct type in its own. */
  PurchaseRecorded: {
    version: 1,
    schema: z.object({
      purchase: purchaseRecord,
      /** INR value of one unit of the city's currency when the purchase was recorded. */
      city_rate: decimal,
      currency: text,
      stock: stockMove.nullable(),
      postings: z.array(posting),
    }),
  },
  PurchaseReturned: {
    version: 1,
    schema: z.object({
      purchase_return: purchaseReturnRecord,
      stock: stockMove.nullable(),
      postings: z.array(posting),
    }),
  },
  /** A sale from a godown's stock, at the moving-average cost it had then (stored as cost). */
  SaleRecorded: {
    version: 1,
    schema: z.object({
      sale: saleRecord,
      agent_city_id: z.uuid(),
      agent_city_rate: decimal,
      currency: text,
      cost: decimal,
      stock: stockMove,
      postings: z.array(posting),
    }),
  },
  SaleReturned: {
    version: 1,
    schema: z.object({
      sale_return: saleReturnRecord,
      stock: stockMove,
      postings: z.array(posting),
    }),
  },
  /** The first Admin was created from the environment on an empty store. */
  AdminBootstrapped: { version: 1, schema: z.object({ user_id: z.uuid(), email: text }) },
} as const;

export type EventType = keyof typeof eventSchemas;
export type EventData<T extends EventType> = z.infer<(typeof eventSchemas)[T]['schema']>;

/** A domain event as the deciders produce it: its type and its data. */
export type DomainEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];

export type CityData = z.infer<typeof cityData>;
export type ProductData = z.infer<typeof productData>;
export type FunderData = z.infer<typeof funderData>;
export type AgentData = z.infer<typeof agentData>;
export type GodownData = z.infer<typeof godownData>;
export type CollectorData = z.infer<typeof collectorData>;
export type UserData = z.infer<typeof userData>;
export type CustomFieldData = z.infer<typeof customFieldData>;

/** Checks an event against its registered schema before it is appended or after it is read. */
export function parseEvent(type: string, data: unknown): DomainEvent {
  const entry = (eventSchemas as Record<string, { schema: z.ZodType }>)[type];
  if (!entry) throw new Error(`Unknown event type ${type}`);
  return { type, data: entry.schema.parse(data) } as DomainEvent;
}

export const isEventType = (type: string): type is EventType => Object.hasOwn(eventSchemas, type);

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

/**
 * The record an adjustment corrects (issue #30), as the command found it: its id, kind and
 * business date then. Optional on every record that may carry it: events written before it
 * existed have none (an added optional field, so version 1 still reads them all).
 */
const adjustmentRef = z.object({
  id: z.uuid(),
  kind: z.enum([
    'Purchase',
    'Sale',
    'Payment',
    'Transfer',
    'SalaryPayment',
    'ClearingPayout',
    'Expense',
    'Income',
  ]),
  date,
});
export type AdjustmentRef = z.infer<typeof adjustmentRef>;
const adjusts = adjustmentRef.nullable().optional();

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
  adjusts,
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
  adjusts,
});
const returnFields = {
  id: z.uuid(),
  quantity: decimal,
  return_date: date,
  remarks: nullableText,
  custom_fields: z.record(z.string(), z.unknown()).optional(),
};
const purchaseReturnRecord = z.object({ ...returnFields, purchase_id: z.uuid() });
const saleReturnRecord = z.object({ ...returnFields, sale_id: z.uuid() });

/**
 * Expenses and incomes (`expense-<id>`, `income-<id>`): recorded, updated (the old postings
 * reversed and the new ones posted, in one event) and deleted (everything reversed).
 */
function cashEntryEvents<
  K extends 'Expense' | 'Income',
  D extends string,
  T extends string,
  I extends string,
>(kind: K, dateField: D, typeField: T, idField: I) {
  const entityType = z.enum(['Collector', 'Godown']);
  // The three named fields keep their names in the type (a computed key alone would widen the
  // whole entry to an index signature, and readers would need casts).
  const named = { [dateField]: date, [typeField]: entityType, [idField]: z.uuid() } as Record<
    D,
    typeof date
  > &
    Record<T, typeof entityType> &
    Record<I, z.ZodUUID>;
  const entry = z.object({
    id: z.uuid(),
    city_id: z.uuid(),
    category: text,
    amount: decimal,
    remarks: nullableText,
    adjusts,
    ...named,
  });
  const body = z.object({ entry, rate: decimal, currency: text, postings: z.array(posting) });
  return {
    [`${kind}Recorded`]: { version: 1, schema: body },
    [`${kind}Updated`]: { version: 1, schema: body },
    [`${kind}Deleted`]: { version: 1, schema: z.object({ id: z.uuid(), postings: z.array(posting) }) },
  } as Record<`${K}${'Recorded' | 'Updated'}`, { version: 1; schema: typeof body }> &
    Record<
      `${K}Deleted`,
      { version: 1; schema: z.ZodObject<{ id: z.ZodUUID; postings: z.ZodArray<typeof posting> }> }
    >;
}

function masterEvents<K extends string, S extends z.ZodType>(kind: K, data: S) {
  return {
    [`${kind}Created`]: { version: 1, schema: data },
    [`${kind}Updated`]: { version: 1, schema: data },
    [`${kind}Deleted`]: { version: 1, schema: deleted },
  } as Record<`${K}${'Created' | 'Updated'}`, { version: 1; schema: S }> &
    Record<`${K}Deleted`, { version: 1; schema: typeof deleted }>;
}

/** An imported file's commit or undo: the import, its file and how many records it created. */
const importedFile = z.object({
  id: z.uuid(),
  kind: text,
  file_name: text,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  records: z.number().int(),
});

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
  /**
   * A purchase changed: its creation postings reversed and the new ones posted, in one
   * event; stock_moves are the net units and value it moved (one per product touched).
   */
  PurchaseUpdated: {
    version: 1,
    schema: z.object({
      purchase: purchaseRecord,
      city_rate: decimal,
      currency: text,
      stock_moves: z.array(stockMove),
      postings: z.array(posting),
    }),
  },
  /** A purchase and its returns undone, in one event. */
  PurchaseDeleted: {
    version: 1,
    schema: z.object({ id: z.uuid(), stock_moves: z.array(stockMove), postings: z.array(posting) }),
  },
  SaleUpdated: {
    version: 1,
    schema: z.object({
      sale: saleRecord,
      agent_city_id: z.uuid(),
      agent_city_rate: decimal,
      currency: text,
      cost: decimal,
      stock_moves: z.array(stockMove),
      postings: z.array(posting),
    }),
  },
  SaleDeleted: {
    version: 1,
    schema: z.object({ id: z.uuid(), stock_moves: z.array(stockMove), postings: z.array(posting) }),
  },
  /** A payment to a funder or a receipt from an agent (`payment-<id>`). */
  PaymentRecorded: {
    version: 1,
    schema: z.object({
      payment: z.object({
        id: z.uuid(),
        related_entity_type: z.enum(['Funder', 'Agent']),
        related_entity_id: z.uuid(),
        city_id: z.uuid(),
        payment_date: date,
        amount: decimal,
        payment_mode: z.enum(['Currency', 'INR']),
        collector_id: z.uuid().nullable(),
        godown_id: z.uuid().nullable(),
        reference: nullableText,
        adjusts,
      }),
      city_rate: decimal,
      currency: text,
      postings: z.array(posting),
    }),
  },
  /**
   * A payment reversed, in its own stream: its postings undone. The API has no delete for a payment
   * (one is put right by a payment the other way); only the undo of an import appends this (issue #31).
   */
  PaymentDeleted: {
    version: 1,
    schema: z.object({ id: z.uuid(), postings: z.array(posting) }),
  },
  /** Clearing charges of a godown paid out by a godown, in the cleared godown's inventory stream. */
  ClearingPaidOut: {
    version: 1,
    schema: z.object({
      payout: z.object({
        id: z.uuid(),
        payout_date: date,
        godown_id: z.uuid(),
        payer_entity_type: z.literal('Godown'),
        payer_entity_id: z.uuid(),
        amount: decimal,
        remarks: nullableText,
      }),
      postings: z.array(posting),
    }),
  },
  /** Salary for one collector's month (`salary-<collectorId>-<year>-<month>`); amounts in the city currency. */
  SalaryPaid: {
    version: 1,
    schema: z.object({
      salary_payment: z.object({
        id: z.uuid(),
        collector_id: z.uuid(),
        city_id: z.uuid(),
        month: z.number().int(),
        year: z.number().int(),
        payment_type: z.enum(['Full', 'Advance']),
        payment_mode: z.enum(['Currency', 'INR']),
        amount: decimal,
        category: text,
        paid_from_entity_type: z.enum(['Collector', 'Godown']),
        paid_from_entity_id: z.uuid(),
        handler_entity_id: z.uuid().nullable(),
        payment_date: date,
        remarks: nullableText,
      }),
      salary_per_month: decimal,
      city_rate: decimal,
      currency: text,
      postings: z.array(posting),
    }),
  },
  /** Cash sent from one collector to another (`transfer-<id>`), across currencies at a rate. */
  TransferRecorded: {
    version: 1,
    schema: z.object({
      transfer: z.object({
        id: z.uuid(),
        transfer_date: date,
        from_collector_id: z.uuid(),
        to_collector_id: z.uuid(),
        sent_amount: decimal,
        transfer_charge: decimal,
        operation: z.enum(['*', '/']),
        rate: decimal,
        amount: decimal,
        remarks: nullableText,
        adjusts,
      }),
      from_city_rate: decimal,
      from_currency: text,
      to_city_rate: decimal,
      to_currency: text,
      postings: z.array(posting),
    }),
  },
  ...cashEntryEvents('Expense', 'expense_date', 'paid_from_entity_type', 'paid_from_entity_id'),
  ...cashEntryEvents('Income', 'income_date', 'received_by_entity_type', 'received_by_entity_id'),
  /** The license was checked again (retry): what the query side pushes as license-updated. */
  LicenseChecked: {
    version: 1,
    schema: z.object({
      is_valid: z.boolean(),
      reason: nullableText,
      status: text.nullable(),
      expires_at: text.nullable(),
    }),
  },
  /** A standalone process started on this data directory (an audit trail of restarts). */
  StandaloneStarted: { version: 1, schema: z.object({ pid: z.number().int(), frontendsBuilt: z.boolean() }) },
  /** A notice for the users of a role (the license expiring or expired, for Admins). */
  NotificationRaised: {
    version: 1,
    schema: z.object({
      id: z.uuid(),
      audience: z.enum(ROLES),
      type: z.enum(['info', 'warning', 'success', 'error']),
      title: text,
      message: text,
      link: nullableText,
    }),
  },
  /** One user read one notification, or all of them up to a moment. */
  NotificationRead: { version: 1, schema: z.object({ user_id: z.uuid(), notification_id: z.uuid() }) },
  NotificationsAllRead: { version: 1, schema: z.object({ user_id: z.uuid(), up_to: text }) },
  /**
   * A report sent by WhatsApp (or kept in the outbox), by the reports worker: what was read at
   * which event-store position and the SHA-256 of the file, so a disputed statement can be
   * regenerated and compared.
   */
  ReportSendRecorded: {
    version: 1,
    schema: z.object({
      job_id: text,
      report: text,
      params: z.record(z.string(), z.string()),
      recipient: text,
      transport: z.enum(['cloud-api', 'outbox']),
      /** `sent`: an Admin sent it by hand from the outbox (POST /api/reports/whatsapp/outbox/{jobId}/sent). */
      status: z.enum(['accepted', 'outbox', 'failed', 'sent']),
      message_id: nullableText,
      error: nullableText,
      file_name: text,
      sha256: text,
      bytes: z.number().int(),
      read_position: text,
      read_at: text,
      requested_by: z.uuid(),
    }),
  },
  /**
   * An operator set an event aside for one projection: it could not be applied, and the
   * projection (and every rebuild of it) goes on without it (docs/read-side.md, Quarantine).
   */
  EventQuarantined: {
    version: 1,
    schema: z.object({
      projection: text,
      position: z.string().regex(/^\d+$/),
      event_type: text,
      stream_id: text,
      reason: text,
      error: nullableText,
    }),
  },
  /** The demo business was loaded (BAHI_DEMO=1), once. */
  /**
   * The books closed up to a date (`books`, issue #30): from then on nothing dated on or before
   * it is written, changed or deleted. `previous`: the close it replaced (null: none).
   */
  BooksClosed: { version: 1, schema: z.object({ up_to: date, previous: date.nullable() }) },
  /** The close moved back (to an earlier date, or none: `up_to` null), with the Admin's reason. */
  BooksReopened: {
    version: 1,
    schema: z.object({ up_to: date.nullable(), previous: date, reason: text }),
  },
  DemoLoaded: { version: 1, schema: z.object({ writes: z.number().int() }) },
  /** The first Admin was created from the environment on an empty store. */
  AdminBootstrapped: { version: 1, schema: z.object({ user_id: z.uuid(), email: text }) },
  /**
   * A spreadsheet was imported (issue #31): appended in the same transaction as every record it
   * created, each of which carries `importId` in its metadata. Its stream (`import-<sha256>`) is
   * appended with no_stream, so the same file is imported once.
   */
  ImportCommitted: {
    version: 1,
    schema: importedFile,
  },
  /**
   * An import undone as a whole (issue #31): appended to the file's stream in the same
   * transaction as the reversal of every record it created (each carrying `importId` and
   * `importUndo` in its metadata). The same file may be imported again after it.
   */
  ImportUndone: {
    version: 1,
    schema: importedFile,
  },
} as const;

export type EventType = keyof typeof eventSchemas;

/** The stream of `ReportSendRecorded`: every WhatsApp send's records (the reports worker's, an Admin's). */
export const REPORT_SENDS_STREAM = 'report-sends';

/** The stream of `BooksClosed` and `BooksReopened`: the period close (issue #30). */
export const BOOKS_STREAM = 'books';

/** The stream of `EventQuarantined` decisions (packages/projections/src/quarantine.ts). */
export const QUARANTINE_STREAM = 'system-quarantine';

/** The stream of one imported file's `ImportCommitted`, by the file's SHA-256 (issue #31). */
export const importStreamId = (sha256: string) => `import-${sha256}`;
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

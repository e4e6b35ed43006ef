import type { CUSTOM_FIELD_ENTITY_TYPES, CUSTOM_FIELD_TYPES } from '@bahi/contracts';
import type { Role } from '@bahi/contracts/roles';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** int8 columns: written as string or bigint, read back as string (exact). */
type Int8 = ColumnType<string, string | bigint, string | bigint>;

export interface ProjectionCheckpointsTable {
  name: string;
  position: ColumnType<string, string | bigint | undefined, string | bigint>;
  status: Generated<'running' | 'failed' | 'paused'>;
  error: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
export type ProjectionCheckpoint = Selectable<ProjectionCheckpointsTable>;
export type NewProjectionCheckpoint = Insertable<ProjectionCheckpointsTable>;
export type ProjectionCheckpointUpdate = Updateable<ProjectionCheckpointsTable>;

/** A rebuild of read models into a shadow schema: asked for, running, done or failed. */
export interface ProjectionRebuildsTable {
  id: string;
  projections: ColumnType<string[], string, string>;
  swap: boolean;
  status: 'requested' | 'running' | 'done' | 'failed';
  requested_by: string;
  position: ColumnType<string, string | bigint | undefined, string | bigint>;
  target: ColumnType<string, string | bigint | undefined, string | bigint>;
  report: ColumnType<unknown, string | null | undefined, string | null>;
  error: string | null;
  requested_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

/**
 * The figures of each close (issue #30), by the close's log position: their canonical JSON and
 * its SHA-256, and the sealed chain head there. Not a projection (a rebuild leaves it alone).
 */
export interface BookCloseFiguresTable {
  position: ColumnType<string, string | bigint, never>;
  up_to: string;
  closed_at: ColumnType<Date, Date | string, never>;
  figures: string;
  digest: string;
  chain_head: string | null;
  stored_at: ColumnType<Date, Date | string | undefined, never>;
}

/** Sums of the journal per account (and currency): what each account holds now. */
export interface AccountTotalsTable {
  account: string;
  currency: string;
  amount: ColumnType<string, string, string>;
  inr: ColumnType<string, string, string>;
  quantity: ColumnType<string, string, string>;
}

/** Sums of the journal per account, currency and business date. */
export interface AccountDaysTable extends AccountTotalsTable {
  business_date: ColumnType<string, string, string>;
}

export interface EventTypeCountsTable {
  type: string;
  count: Int8;
  last_position: Int8;
}

/** Which record refers to which master: what blocks a master's deletion. */
export interface MasterReferencesTable {
  source_kind: string;
  source_id: string;
  target_kind: string;
  target_id: string;
}

/** Which stream holds a purchase or a sale (a godown's inventory, or the purchase's own). */
export interface RecordStreamsTable {
  record_id: string;
  kind: 'Purchase' | 'Sale';
  stream_id: string;
}

/** Custom field definitions as they stand (deleted ones kept, flagged). */
export interface CustomFieldDefinitionsTable {
  id: string;
  name: string;
  type: (typeof CUSTOM_FIELD_TYPES)[number];
  is_required: boolean;
  options: ColumnType<string[] | null, string | null, string | null>;
  entity_types: ColumnType<Array<(typeof CUSTOM_FIELD_ENTITY_TYPES)[number]>, string, string>;
  deleted: Generated<boolean>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** numeric columns: written as exact text, read back as text. */
type Numeric = ColumnType<string, string, string>;
type CreatedAt = ColumnType<Date, Date | string, Date | string>;

export interface CitiesTable {
  id: string;
  name: string;
  currency_name: string;
  rate: Numeric;
  deleted: Generated<boolean>;
  created_at: CreatedAt;
}

export interface ProductsTable {
  id: string;
  name: string;
  deleted: Generated<boolean>;
  created_at: CreatedAt;
}

export interface PartiesTable {
  id: string;
  kind: 'Funder' | 'Agent' | 'Collector' | 'Godown';
  name: string;
  city_id: string | null;
  joining_date: ColumnType<string | null, string | null, string | null>;
  address: string | null;
  narration: string | null;
  phone: string | null;
  opening_balance: Numeric;
  salary_per_month: ColumnType<string | null, string | null, string | null>;
  deleted: Generated<boolean>;
  created_at: CreatedAt;
}

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  role: Role;
  is_active: boolean;
  deleted: Generated<boolean>;
  created_at: CreatedAt;
}

export interface JournalTable {
  position: Int8;
  line: number;
  event_type: string;
  record_id: string;
  business_date: ColumnType<string, string, string>;
  recorded_at: CreatedAt;
  account: string;
  currency: string;
  amount: Numeric;
  inr: Numeric;
  quantity: ColumnType<string | null, string | null, string | null>;
  /**
   * Set on an edit's or a delete's reversal lines and on the lines they undo: when it became
   * known, and by which event (its position). Per account, the lines one event superseded sum
   * to zero.
   */
  superseded_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  superseded_by: ColumnType<string | null, string | bigint | null | undefined, string | bigint | null>;
  /**
   * Its event's words (journal_words.detail, repeated on each of the event's lines), so that a
   * ledger reads one range with no look-up per line. Null on lines written before the column.
   */
  words: ColumnType<Record<string, unknown> | string | null, string | null | undefined, string | null>;
}

/** Per event that posts: the fields of its record a ledger's Particulars are made of. */
export interface JournalWordsTable {
  position: Int8;
  record_id: string;
  event_type: string;
  user_id: string | null;
  detail: ColumnType<Record<string, unknown>, string, string>;
}

type Day = ColumnType<string, string, string>;
type Json = ColumnType<Record<string, unknown>, string, string>;

export interface PurchasesTable {
  id: string;
  type: 'Godown' | 'Direct';
  purchase_date: Day;
  city_id: string;
  funder_id: string;
  product_id: string;
  godown_id: string | null;
  collector_id: string | null;
  agent_id: string | null;
  rate: Numeric;
  quantity: Numeric;
  returned_quantity: ColumnType<string, string | undefined, string>;
  paid_amount: Numeric;
  commission: Numeric;
  custom_fields: Json;
  /** The record this purchase adjusts (issue #30): { id, kind, date }; null when it adjusts none. */
  adjusts: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  deleted: Generated<boolean>;
  created_at: CreatedAt;
}

export interface SalesTable {
  id: string;
  sale_date: Day;
  agent_id: string;
  agent_city_id: string;
  product_id: string;
  godown_id: string;
  rate: Numeric;
  quantity: Numeric;
  returned_quantity: ColumnType<string, string | undefined, string>;
  clearing_charge: Numeric;
  custom_fields: Json;
  /** The record this sale adjusts (issue #30): { id, kind, date }; null when it adjusts none. */
  adjusts: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  deleted: Generated<boolean>;
  created_at: CreatedAt;
}

/** Payments, transfers, salary payments, clearing payouts, expenses and incomes: the record as written. */
export interface CashRecordsTable {
  id: string;
  kind: 'Payment' | 'Transfer' | 'SalaryPayment' | 'ClearingPayout' | 'Expense' | 'Income';
  business_date: Day;
  city_id: string | null;
  amount: Numeric;
  /** INR on the nominal side (expense, income, salary) of the record's latest event; else 0. */
  nominal_inr: ColumnType<string, string | undefined, string>;
  record: Json;
  deleted: Generated<boolean>;
  created_at: CreatedAt;
}

/** CREATE, UPDATE and DELETE of every record, with the data before and after. */
export interface ActivityLogTable {
  id: string;
  position: Int8;
  action_type: 'CREATE' | 'UPDATE' | 'DELETE';
  model_name: string;
  record_id: string;
  user_id: string | null;
  old_data: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  new_data: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  created_at: CreatedAt;
}

export interface NotificationsTable {
  id: string;
  audience: string;
  type: 'info' | 'warning' | 'success' | 'error';
  title: string;
  message: string;
  link: string | null;
  created_at: CreatedAt;
}

export interface NotificationReadsTable {
  user_id: string;
  notification_id: string;
}

export interface NotificationReadsAllTable {
  user_id: string;
  up_to: CreatedAt;
}

export interface Database {
  projection_checkpoints: ProjectionCheckpointsTable;
  projection_rebuilds: ProjectionRebuildsTable;
  account_totals: AccountTotalsTable;
  account_days: AccountDaysTable;
  event_type_counts: EventTypeCountsTable;
  master_references: MasterReferencesTable;
  record_streams: RecordStreamsTable;
  custom_field_definitions: CustomFieldDefinitionsTable;
  cities: CitiesTable;
  products: ProductsTable;
  parties: PartiesTable;
  users: UsersTable;
  journal: JournalTable;
  journal_words: JournalWordsTable;
  purchases: PurchasesTable;
  sales: SalesTable;
  cash_records: CashRecordsTable;
  activity_log: ActivityLogTable;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
  notification_reads_all: NotificationReadsAllTable;
  book_close_figures: BookCloseFiguresTable;
}

import { RECORD_TYPES, type RecordType } from '@bahi/contracts';
import { sql } from 'kysely';

export const isRecordType = (type: string): type is RecordType =>
  (RECORD_TYPES as readonly string[]).includes(type);

/**
 * The record a journal line belongs to, by the event that posted it. A return's lines belong
 * to its purchase or sale (the journal's record_id of a return is the purchase's or sale's).
 */
const RECORD_OF_EVENT: Readonly<Record<string, RecordType>> = {
  PurchaseRecorded: 'Purchase',
  PurchaseUpdated: 'Purchase',
  PurchaseDeleted: 'Purchase',
  PurchaseReturned: 'Purchase',
  SaleRecorded: 'Sale',
  SaleUpdated: 'Sale',
  SaleDeleted: 'Sale',
  SaleReturned: 'Sale',
  PaymentRecorded: 'Payment',
  ClearingPaidOut: 'ClearingPayout',
  SalaryPaid: 'SalaryPayment',
  TransferRecorded: 'Transfer',
  ExpenseRecorded: 'Expense',
  ExpenseUpdated: 'Expense',
  ExpenseDeleted: 'Expense',
  IncomeRecorded: 'Income',
  IncomeUpdated: 'Income',
  IncomeDeleted: 'Income',
};

/** A line's identity, the same in every read of it: its place in the journal and its record. */
export interface LineIdentity {
  /** `<position>.<line>`: the event's position in the log and the posting's index in it. */
  key: string;
  record: { type: RecordType; id: string };
  /** When the line was recorded (ISO, UTC). */
  recorded_at: string;
}

/** The journal columns a line's identity is made of (select them with `identityColumns`). */
export interface IdentityRow {
  key: string;
  event_type: string;
  record_id: string;
  recorded_at: Date | string;
}

/** Select these next to a journal line's own columns. */
export const identityColumns = [
  sql<string>`position::text || '.' || line::text`.as('key'),
  'event_type',
  'record_id',
  'recorded_at',
] as const;

export function lineIdentity(row: IdentityRow): LineIdentity {
  const type = RECORD_OF_EVENT[row.event_type];
  // The journal projection posts lines for these events alone (journal.projection.ts recordOf).
  if (!type) throw new Error(`A journal line of ${row.event_type} belongs to no known record.`);
  return {
    key: row.key,
    record: { type, id: row.record_id },
    recorded_at: new Date(row.recorded_at).toISOString(),
  };
}

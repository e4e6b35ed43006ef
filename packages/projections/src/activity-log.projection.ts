import { BOOKS_RECORD_ID } from '@bahi/contracts';
import { chunks, insertRows } from './batch.ts';
import { type Projection, type TypedEvent, typed } from './projection.ts';

type Change = { action: 'CREATE' | 'UPDATE' | 'DELETE'; model: string; id: string; data: object | null };

type MasterKind = 'City' | 'Product' | 'Funder' | 'Agent' | 'Godown' | 'Collector' | 'User';
type MasterEvent = Extract<TypedEvent, { type: `${MasterKind}${'Created' | 'Updated' | 'Deleted'}` }>;
const MASTER = /^(City|Product|Funder|Agent|Godown|Collector|User)(Created|Updated|Deleted)$/;
const isMaster = (event: TypedEvent): event is MasterEvent => MASTER.test(event.type);
const ACTION = { Created: 'CREATE', Recorded: 'CREATE', Updated: 'UPDATE', Deleted: 'DELETE' } as const;

const created = (model: string, record: { id: string }): Change => ({
  action: 'CREATE',
  model,
  id: record.id,
  data: record,
});
const recordedOrUpdated = (type: string, model: string, record: { id: string }): Change => ({
  action: type.endsWith('Updated') ? 'UPDATE' : 'CREATE',
  model,
  id: record.id,
  data: record,
});
const deleted = (model: string, id: string): Change => ({ action: 'DELETE', model, id, data: null });

/** What an event did to which record, in the activity log's words; undefined for events it does not log. */
function changeOf(event: TypedEvent): Change | undefined {
  if (isMaster(event)) {
    const [, model, verb] = MASTER.exec(event.type)!;
    const action = ACTION[verb as keyof typeof ACTION];
    return { action, model: model!, id: event.data.id, data: action === 'DELETE' ? null : event.data };
  }
  switch (event.type) {
    case 'PurchaseRecorded':
    case 'PurchaseUpdated':
      return recordedOrUpdated(event.type, 'Purchase', event.data.purchase);
    case 'SaleRecorded':
    case 'SaleUpdated':
      return recordedOrUpdated(event.type, 'Sale', event.data.sale);
    case 'PurchaseDeleted':
      return deleted('Purchase', event.data.id);
    case 'SaleDeleted':
      return deleted('Sale', event.data.id);
    case 'PurchaseReturned':
      return created('PurchaseReturn', event.data.purchase_return);
    case 'SaleReturned':
      return created('SaleReturn', event.data.sale_return);
    case 'PaymentRecorded':
      return created('Payment', event.data.payment);
    case 'PaymentDeleted':
      return deleted('Payment', event.data.id);
    case 'TransferRecorded':
      return created('Transfer', event.data.transfer);
    case 'SalaryPaid':
      return created('SalaryPayment', event.data.salary_payment);
    case 'ClearingPaidOut':
      return created('ClearingPayout', event.data.payout);
    case 'ExpenseRecorded':
    case 'ExpenseUpdated':
      return recordedOrUpdated(event.type, 'Expense', event.data.entry);
    case 'IncomeRecorded':
    case 'IncomeUpdated':
      return recordedOrUpdated(event.type, 'Income', event.data.entry);
    case 'ExpenseDeleted':
      return deleted('Expense', event.data.id);
    case 'IncomeDeleted':
      return deleted('Income', event.data.id);
    // The period close (issue #30): one record, the books, changed by each close and reopening.
    case 'BooksClosed':
      return { action: 'UPDATE', model: 'Books', id: BOOKS_RECORD_ID, data: { closed: event.data } };
    case 'BooksReopened':
      return { action: 'UPDATE', model: 'Books', id: BOOKS_RECORD_ID, data: { reopened: event.data } };
    // An imported file (issue #31): one entry naming the file, by the user who committed it.
    case 'ImportCommitted':
      return { action: 'CREATE', model: 'Import', id: event.data.id, data: event.data };
    // Its undo: the import's entry again, deleted, still naming the file (data kept, not null).
    case 'ImportUndone':
      return { action: 'DELETE', model: 'Import', id: event.data.id, data: event.data };
    default:
      return undefined;
  }
}

/** The activity log: who created, changed or deleted which record, and its data before and after. */
export const activityLog: Projection = {
  name: 'activity_log',
  tables: ['activity_log'],
  // An edit or delete logs the data it replaced: its record's latest entry, by record.
  readIndexes: ['activity_log_record'],
  async apply(tx, events) {
    const changes = events.flatMap((event) => {
      const change = changeOf(typed(event));
      return change ? [{ event, change }] : [];
    });
    if (changes.length === 0) return;
    // Each record's data as it stands: from before this batch (its latest logged data, one
    // query), then as the batch changes it, so an update or delete logs the data it replaced.
    const current = new Map<string, unknown>();
    const earlier = [...new Set(changes.filter((c) => c.change.action !== 'CREATE').map((c) => c.change.id))];
    for (const ids of chunks(earlier)) {
      const rows = await tx
        .selectFrom('activity_log')
        .select(['record_id', 'new_data'])
        .distinctOn('record_id')
        .where('record_id', 'in', ids)
        .where('new_data', 'is not', null)
        .orderBy('record_id')
        .orderBy('position', 'desc')
        .execute();
      for (const row of rows) current.set(row.record_id, row.new_data);
    }
    const log = [];
    for (const { event, change } of changes) {
      const before = change.action === 'CREATE' ? undefined : current.get(change.id);
      log.push({
        id: event.id,
        position: event.position,
        action_type: change.action,
        model_name: change.model,
        record_id: change.id,
        user_id: event.metadata.userId ?? null,
        old_data: before === undefined ? null : JSON.stringify(before),
        new_data: change.data ? JSON.stringify(change.data) : null,
        created_at: event.metadata.recordedAt,
      });
      if (change.data) current.set(change.id, change.data);
    }
    await insertRows(tx, 'activity_log', log);
  },
};

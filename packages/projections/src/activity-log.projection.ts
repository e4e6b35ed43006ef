import type { RecordedEvent } from '@bahi/event-store';
import { chunks, insertRows } from './batch.ts';
import type { Projection } from './projection.ts';

type Rec = Record<string, unknown>;
type Change = { action: 'CREATE' | 'UPDATE' | 'DELETE'; model: string; id: string; data: Rec | null };

const MASTER = /^(City|Product|Funder|Agent|Godown|Collector|User)(Created|Updated|Deleted)$/;
const ACTION = { Created: 'CREATE', Recorded: 'CREATE', Updated: 'UPDATE', Deleted: 'DELETE' } as const;

/** What an event did to which record, in the activity log's words; undefined for events it does not log. */
function changeOf(event: RecordedEvent): Change | undefined {
  const d = event.data as Rec;
  const master = MASTER.exec(event.type);
  if (master) {
    const action = ACTION[master[2] as keyof typeof ACTION];
    return { action, model: master[1]!, id: d.id as string, data: action === 'DELETE' ? null : d };
  }
  const record = (key: string) => d[key] as Rec;
  switch (event.type) {
    case 'PurchaseRecorded':
    case 'PurchaseUpdated':
      return {
        action: ACTION[event.type === 'PurchaseRecorded' ? 'Recorded' : 'Updated'],
        model: 'Purchase',
        id: record('purchase').id as string,
        data: record('purchase'),
      };
    case 'SaleRecorded':
    case 'SaleUpdated':
      return {
        action: ACTION[event.type === 'SaleRecorded' ? 'Recorded' : 'Updated'],
        model: 'Sale',
        id: record('sale').id as string,
        data: record('sale'),
      };
    case 'PurchaseDeleted':
      return { action: 'DELETE', model: 'Purchase', id: d.id as string, data: null };
    case 'SaleDeleted':
      return { action: 'DELETE', model: 'Sale', id: d.id as string, data: null };
    case 'PurchaseReturned':
      return {
        action: 'CREATE',
        model: 'PurchaseReturn',
        id: record('purchase_return').id as string,
        data: record('purchase_return'),
      };
    case 'SaleReturned':
      return {
        action: 'CREATE',
        model: 'SaleReturn',
        id: record('sale_return').id as string,
        data: record('sale_return'),
      };
    case 'PaymentRecorded':
      return {
        action: 'CREATE',
        model: 'Payment',
        id: record('payment').id as string,
        data: record('payment'),
      };
    case 'TransferRecorded':
      return {
        action: 'CREATE',
        model: 'Transfer',
        id: record('transfer').id as string,
        data: record('transfer'),
      };
    case 'SalaryPaid':
      return {
        action: 'CREATE',
        model: 'SalaryPayment',
        id: record('salary_payment').id as string,
        data: record('salary_payment'),
      };
    case 'ClearingPaidOut':
      return {
        action: 'CREATE',
        model: 'ClearingPayout',
        id: record('payout').id as string,
        data: record('payout'),
      };
    case 'ExpenseRecorded':
    case 'ExpenseUpdated':
    case 'IncomeRecorded':
    case 'IncomeUpdated': {
      const [model, change] = event.type.startsWith('Expense')
        ? ['Expense', event.type.slice(7)]
        : ['Income', event.type.slice(6)];
      return {
        action: ACTION[change as 'Recorded' | 'Updated'],
        model,
        id: record('entry').id as string,
        data: record('entry'),
      };
    }
    case 'ExpenseDeleted':
    case 'IncomeDeleted':
      return {
        action: 'DELETE',
        model: event.type.startsWith('Expense') ? 'Expense' : 'Income',
        id: d.id as string,
        data: null,
      };
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
      const change = changeOf(event);
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

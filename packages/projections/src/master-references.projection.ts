import { chunks, createsRecord, insertRows } from './batch.ts';
import { type Projection, type TypedEvent, typed } from './projection.ts';

type Row = { source_kind: string; source_id: string; target_kind: string; target_id: string };
type Targets = Array<[string, string | null | undefined]>;

type PartyEvent = Extract<
  TypedEvent,
  { type: `${'Funder' | 'Agent' | 'Collector'}${'Created' | 'Updated' | 'Deleted'}` }
>;
const PARTY = /^(Funder|Agent|Collector)(Created|Updated|Deleted)$/;
const isParty = (event: TypedEvent): event is PartyEvent => PARTY.test(event.type);

const refs = (kind: string, record: { id: string }, targets: Targets) => ({
  sourceId: record.id,
  rows: toRows(kind, record.id, targets),
});

/** The masters an event's record refers to; undefined when the event is not about references. */
function referencesOf(event: TypedEvent): { sourceId: string; rows: Row[] } | undefined {
  if (isParty(event)) {
    const [, kind, change] = PARTY.exec(event.type)!;
    const data = event.data;
    return change !== 'Deleted' && 'city_id' in data
      ? refs(kind!, data, [['City', data.city_id]])
      : { sourceId: data.id, rows: [] };
  }
  switch (event.type) {
    case 'PurchaseDeleted':
    case 'SaleDeleted':
    case 'PaymentDeleted':
    case 'ExpenseDeleted':
    case 'IncomeDeleted':
      return { sourceId: event.data.id, rows: [] };
    case 'PurchaseRecorded':
    case 'PurchaseUpdated': {
      const p = event.data.purchase;
      return refs('Purchase', p, [
        ['City', p.city_id],
        ['Funder', p.funder_id],
        ['Product', p.product_id],
        ['Godown', p.godown_id],
        ['Collector', p.collector_id],
        ['Agent', p.agent_id],
      ]);
    }
    case 'SaleRecorded':
    case 'SaleUpdated': {
      const s = event.data.sale;
      return refs('Sale', s, [
        ['Agent', s.agent_id],
        ['Product', s.product_id],
        ['Godown', s.godown_id],
      ]);
    }
    // The cash records: who paid, who was paid, through which collector or godown.
    case 'PaymentRecorded': {
      const p = event.data.payment;
      return refs('Payment', p, [
        [p.related_entity_type, p.related_entity_id],
        ['Collector', p.collector_id],
        ['Godown', p.godown_id],
      ]);
    }
    case 'TransferRecorded': {
      const t = event.data.transfer;
      return refs('Transfer', t, [
        ['Collector', t.from_collector_id],
        ['Collector', t.to_collector_id],
      ]);
    }
    case 'SalaryPaid': {
      const sp = event.data.salary_payment;
      return refs('SalaryPayment', sp, [
        ['Collector', sp.collector_id],
        [sp.paid_from_entity_type, sp.paid_from_entity_id],
      ]);
    }
    case 'ClearingPaidOut': {
      const c = event.data.payout;
      return refs('ClearingPayout', c, [
        ['Godown', c.godown_id],
        ['Godown', c.payer_entity_id],
      ]);
    }
    case 'ExpenseRecorded':
    case 'ExpenseUpdated': {
      const e = event.data.entry;
      return refs('Expense', e, [
        ['City', e.city_id],
        [e.paid_from_entity_type, e.paid_from_entity_id],
      ]);
    }
    case 'IncomeRecorded':
    case 'IncomeUpdated': {
      const e = event.data.entry;
      return refs('Income', e, [
        ['City', e.city_id],
        [e.received_by_entity_type, e.received_by_entity_id],
      ]);
    }
    default:
      return undefined;
  }
}

function toRows(kind: string, id: string, targets: Array<[string, string | null | undefined]>): Row[] {
  const seen = new Set<string>();
  return targets.flatMap(([targetKind, targetId]) => {
    if (!targetId || seen.has(targetId)) return [];
    seen.add(targetId);
    return [{ source_kind: kind, source_id: id, target_kind: targetKind, target_id: targetId }];
  });
}

/**
 * Which records refer to which masters: the command side reads it to refuse deleting a
 * master that is still referred to, naming what refers to it.
 */
export const masterReferences: Projection = {
  name: 'master_references',
  tables: ['master_references'],
  async apply(tx, events) {
    // Each event states a record's whole set of references: the last one in the batch wins.
    // A record first seen in this batch through the event that created it has no rows yet,
    // so only the others' rows are deleted first (the delete was a third of a rebuild's time).
    const latest = new Map<string, Row[]>();
    const created = new Set<string>();
    for (const event of events) {
      const found = referencesOf(typed(event));
      if (!found) continue;
      if (!latest.has(found.sourceId) && createsRecord(event.type)) created.add(found.sourceId);
      latest.set(found.sourceId, found.rows);
    }
    if (latest.size === 0) return;
    const replaced = [...latest.keys()].filter((id) => !created.has(id));
    for (const ids of chunks(replaced))
      await tx.deleteFrom('master_references').where('source_id', 'in', ids).execute();
    await insertRows(tx, 'master_references', [...latest.values()].flat());
  },
};

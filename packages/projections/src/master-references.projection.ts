import type { RecordedEvent } from '@bahi/event-store';
import { chunks, createsRecord, insertRows } from './batch.ts';
import type { Projection } from './projection.ts';

type Row = { source_kind: string; source_id: string; target_kind: string; target_id: string };

/** The masters an event's record refers to; undefined when the event is not about references. */
function referencesOf(event: RecordedEvent): { sourceId: string; rows: Row[] } | undefined {
  const party = /^(Funder|Agent|Collector)(Created|Updated|Deleted)$/.exec(event.type);
  if (party) {
    const data = event.data as { id: string; city_id?: string };
    const rows =
      party[2] !== 'Deleted' && data.city_id
        ? [{ source_kind: party[1]!, source_id: data.id, target_kind: 'City', target_id: data.city_id }]
        : [];
    return { sourceId: data.id, rows };
  }
  if (event.type === 'PurchaseDeleted' || event.type === 'SaleDeleted') {
    return { sourceId: (event.data as { id: string }).id, rows: [] };
  }
  if (event.type === 'PurchaseRecorded' || event.type === 'PurchaseUpdated') {
    const p = (event.data as { purchase: Record<string, string | null> }).purchase;
    const targets: Array<[string, string | null | undefined]> = [
      ['City', p.city_id],
      ['Funder', p.funder_id],
      ['Product', p.product_id],
      ['Godown', p.godown_id],
      ['Collector', p.collector_id],
      ['Agent', p.agent_id],
    ];
    return { sourceId: p.id!, rows: toRows('Purchase', p.id!, targets) };
  }
  if (event.type === 'SaleRecorded' || event.type === 'SaleUpdated') {
    const s = (event.data as { sale: Record<string, string | null> }).sale;
    const targets: Array<[string, string | null | undefined]> = [
      ['Agent', s.agent_id],
      ['Product', s.product_id],
      ['Godown', s.godown_id],
    ];
    return { sourceId: s.id!, rows: toRows('Sale', s.id!, targets) };
  }
  const cash = cashReferences(event);
  if (cash) return cash;
  return undefined;
}

/** References of the cash records: who paid, who was paid, through which collector or godown. */
function cashReferences(event: RecordedEvent): { sourceId: string; rows: Row[] } | undefined {
  const data = event.data as Record<string, Record<string, string | null> | string>;
  const entity = (type: unknown) =>
    type === 'Godown' ? 'Godown' : type === 'Agent' ? 'Agent' : type === 'Funder' ? 'Funder' : 'Collector';
  switch (event.type) {
    case 'PaymentRecorded': {
      const p = data.payment as Record<string, string | null>;
      return {
        sourceId: p.id!,
        rows: toRows('Payment', p.id!, [
          [entity(p.related_entity_type), p.related_entity_id],
          ['Collector', p.collector_id],
          ['Godown', p.godown_id],
        ]),
      };
    }
    case 'TransferRecorded': {
      const t = data.transfer as Record<string, string | null>;
      return {
        sourceId: t.id!,
        rows: toRows('Transfer', t.id!, [
          ['Collector', t.from_collector_id],
          ['Collector', t.to_collector_id],
        ]),
      };
    }
    case 'SalaryPaid': {
      const sp = data.salary_payment as Record<string, string | null>;
      return {
        sourceId: sp.id!,
        rows: toRows('SalaryPayment', sp.id!, [
          ['Collector', sp.collector_id],
          [entity(sp.paid_from_entity_type), sp.paid_from_entity_id],
        ]),
      };
    }
    case 'ClearingPaidOut': {
      const c = data.payout as Record<string, string | null>;
      return {
        sourceId: c.id!,
        rows: toRows('ClearingPayout', c.id!, [
          ['Godown', c.godown_id],
          ['Godown', c.payer_entity_id],
        ]),
      };
    }
    case 'ExpenseRecorded':
    case 'ExpenseUpdated':
    case 'IncomeRecorded':
    case 'IncomeUpdated': {
      const e = data.entry as Record<string, string | null>;
      const kind = event.type.startsWith('Expense') ? 'Expense' : 'Income';
      const [typeField, idField] =
        kind === 'Expense'
          ? ['paid_from_entity_type', 'paid_from_entity_id']
          : ['received_by_entity_type', 'received_by_entity_id'];
      return {
        sourceId: e.id!,
        rows: toRows(kind, e.id!, [
          ['City', e.city_id],
          [entity(e[typeField!]), e[idField!]],
        ]),
      };
    }
    case 'ExpenseDeleted':
    case 'IncomeDeleted':
      return { sourceId: data.id as string, rows: [] };
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
      const refs = referencesOf(event);
      if (!refs) continue;
      if (!latest.has(refs.sourceId) && createsRecord(event.type)) created.add(refs.sourceId);
      latest.set(refs.sourceId, refs.rows);
    }
    if (latest.size === 0) return;
    const replaced = [...latest.keys()].filter((id) => !created.has(id));
    for (const ids of chunks(replaced))
      await tx.deleteFrom('master_references').where('source_id', 'in', ids).execute();
    await insertRows(tx, 'master_references', [...latest.values()].flat());
  },
};

import type { IncomeRow } from '@bahi/contracts';
import type { CashEntryKind } from '../../shared/cash-entries.ts';

// A row of GET /transactions/incomes: the route's schema (issue #19).
export type { IncomeRow };

export const INCOMES: CashEntryKind<IncomeRow> = {
  kind: 'Income',
  path: 'incomes',
  title: 'Other Incomes',
  fetchFallback: 'Failed to fetch incomes.',
  emptyText: 'No incomes found.',
  partyLabel: 'Received By',
  fields: { date: 'income_date', type: 'received_by_entity_type', id: 'received_by_entity_id' },
  fromRow: (r) => ({
    id: r.id,
    date: r.income_date,
    city_id: r.city_id,
    category: r.category,
    amount: r.amount,
    party_type: r.received_by_entity_type,
    party_id: r.received_by_entity_id,
    party_name: r.receiverName,
    remarks: r.remarks,
    salary: false,
  }),
};

import type { ExpenseRow } from '@bahi/contracts';
import type { CashEntryKind } from '../../shared/cash-entries.ts';

// A row of GET /transactions/expenses (salary payments are listed among expenses): the route's
// schema (issue #19).
export type { ExpenseRow };

export const EXPENSES: CashEntryKind<ExpenseRow> = {
  kind: 'Expense',
  path: 'expenses',
  title: 'Expenses',
  fetchFallback: 'Failed to fetch expenses.',
  emptyText: 'No expenses found.',
  partyLabel: 'Paid From',
  fields: { date: 'expense_date', type: 'paid_from_entity_type', id: 'paid_from_entity_id' },
  fromRow: (r) => ({
    id: r.id,
    date: r.expense_date,
    city_id: r.city_id,
    category: r.category,
    amount: r.amount,
    party_type: r.paid_from_entity_type,
    party_id: r.paid_from_entity_id,
    party_name: r.payerName,
    remarks: r.remarks,
    salary: !!r.salary_payment,
  }),
};

import type { CashEntryKind } from '../../shared/cash-entries.ts';

/** A row of GET /transactions/expenses (salary payments are listed among expenses). */
export interface ExpenseRow {
  id: string;
  expense_date: string;
  city_id: string;
  category: string;
  amount: string;
  paid_from_entity_type: 'Collector' | 'Godown';
  paid_from_entity_id: string;
  payerName: string | null;
  remarks: string | null;
  salary_payment?: { collector_id: string; month: string; year: string };
}

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

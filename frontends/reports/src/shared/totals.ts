import { addDecimal, subtractDecimal } from '@bahi/ui/screen';

/** Exact sums of two amount columns and their net (income less expense, cash in less out). */
export function totals<T>(rows: T[], inOf: (row: T) => string, outOf: (row: T) => string) {
  let income = '0.00';
  let expense = '0.00';
  for (const r of rows) {
    income = addDecimal(income, inOf(r) || '0', 2);
    expense = addDecimal(expense, outOf(r) || '0', 2);
  }
  return { in: income, out: expense, net: subtractDecimal(income, expense, 2) };
}

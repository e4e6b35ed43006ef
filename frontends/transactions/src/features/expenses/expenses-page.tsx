import { lazyNamed } from '@bahi/ui';
import { CashEntryPage } from '../../shared/cash-entry-page.tsx';
import { EXPENSES } from './api.ts';

// Loaded with the dialog's first opening (the form and its schema do not weigh on the list).
const ExpenseDialog = lazyNamed(() => import('./expense-dialog.tsx'), 'ExpenseDialog');

/** Expenses (spec section 2): city tabs, dates and category, New Expense for Admin and Manager. */
export function ExpensesPage() {
  return (
    <CashEntryPage kind={EXPENSES} dialog={(city, close) => <ExpenseDialog city={city} onClose={close} />} />
  );
}

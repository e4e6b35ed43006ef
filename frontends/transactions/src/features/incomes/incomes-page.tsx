import { lazyNamed } from '@bahi/ui';
import { CashEntryPage } from '../../shared/cash-entry-page.tsx';
import { INCOMES } from './api.ts';

// Loaded with the dialog's first opening (the form and its schema do not weigh on the list).
const IncomeDialog = lazyNamed(() => import('./income-dialog.tsx'), 'IncomeDialog');

/** Other Incomes (spec section 2): as Expenses, with Received By; New Income for Admin and Manager. */
export function IncomesPage() {
  return (
    <CashEntryPage kind={INCOMES} dialog={(city, close) => <IncomeDialog city={city} onClose={close} />} />
  );
}

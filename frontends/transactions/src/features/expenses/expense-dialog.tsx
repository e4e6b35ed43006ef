import { expenseInput } from '@bahi/contracts';
import type { City } from '@bahi/ui/screen';
import { CashEntryDialog } from '../../shared/cash-entry-dialog.tsx';
import { EXPENSES } from './api.ts';

/** New Expense: paid from a collector of the tab's city or a godown (spec sections 2 and 5). */
export function ExpenseDialog(props: { city: City; onClose(): void; now?: Date }) {
  return <CashEntryDialog kind={EXPENSES} schema={expenseInput} {...props} />;
}

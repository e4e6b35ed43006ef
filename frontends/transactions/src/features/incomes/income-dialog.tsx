import { incomeInput } from '@bahi/contracts';
import type { City } from '@bahi/ui/screen';
import { CashEntryDialog } from '../../shared/cash-entry-dialog.tsx';
import { INCOMES } from './api.ts';

/** New Income: received by a collector of the tab's city or a godown (spec sections 2 and 5). */
export function IncomeDialog(props: { city: City; onClose(): void; now?: Date }) {
  return <CashEntryDialog kind={INCOMES} schema={incomeInput} {...props} />;
}

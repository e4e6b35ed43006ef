import { booksClosedMessage, type DomainEvent, formatBusinessDate } from '@bahi/contracts';
import type { Decider } from '../decider.ts';
import { conflict, invalid } from '../errors.ts';

/**
 * The period close (issue #30), in the `books` stream: the date the books are closed up to.
 * Closing moves it forward; only a reopening, with a reason, moves it back.
 */
export interface BooksState {
  closedUpTo: string | null;
}

export type BooksCommand =
  | { type: 'Close'; upTo: string }
  | { type: 'Reopen'; reason: string; upTo: string | null };

export const initialBooks = (): BooksState => ({ closedUpTo: null });

export function evolveBooks(state: BooksState, event: DomainEvent): BooksState {
  switch (event.type) {
    case 'BooksClosed':
    case 'BooksReopened':
      return { closedUpTo: event.data.up_to };
    default:
      return state;
  }
}

export function decideBooks(command: BooksCommand, state: BooksState): DomainEvent[] {
  const current = state.closedUpTo;
  if (command.type === 'Close') {
    if (current !== null && command.upTo < current)
      throw conflict(
        `The books are already closed up to ${formatBusinessDate(current)}: to close an earlier date, reopen them first.`,
        'up_to',
      );
    if (current === command.upTo) return []; // closed there already: nothing to record
    return [{ type: 'BooksClosed', data: { up_to: command.upTo, previous: current } }];
  }
  if (current === null) throw conflict('The books are not closed: there is nothing to reopen.');
  const reason = command.reason.trim();
  if (!reason)
    throw invalid('Please give a reason for reopening.', [{ msg: 'Reason is required', path: 'reason' }]);
  if (command.upTo !== null && command.upTo >= current)
    throw invalid(`Reopening keeps the books closed up to a date before ${formatBusinessDate(current)}.`, [
      { msg: `Must be before ${formatBusinessDate(current)}`, path: 'up_to' },
    ]);
  return [{ type: 'BooksReopened', data: { up_to: command.upTo, previous: current, reason } }];
}

export const booksDecider: Decider<BooksCommand, BooksState> = {
  initialState: initialBooks,
  evolve: evolveBooks,
  decide: decideBooks,
};

/**
 * The business date a record has after this event, by record id: `date` null when the event
 * deletes it; `field` is the date's name in the record's requests (where a refusal points).
 * Undefined for events that date no record. One list for every dated record the log keeps:
 * the command side's close guard reads it, so a new dated record must be added here.
 */
export type RecordDate = { id: string; field: string; date: string | null };

export function recordDateOf(event: DomainEvent): RecordDate | undefined {
  const at = (id: string, field: string, date: string | null): RecordDate => ({ id, field, date });
  switch (event.type) {
    case 'PurchaseRecorded':
    case 'PurchaseUpdated':
      return at(event.data.purchase.id, 'purchase_date', event.data.purchase.purchase_date);
    case 'SaleRecorded':
    case 'SaleUpdated':
      return at(event.data.sale.id, 'sale_date', event.data.sale.sale_date);
    case 'PurchaseDeleted':
      return at(event.data.id, 'purchase_date', null);
    case 'SaleDeleted':
      return at(event.data.id, 'sale_date', null);
    case 'PurchaseReturned':
      return at(event.data.purchase_return.id, 'return_date', event.data.purchase_return.return_date);
    case 'SaleReturned':
      return at(event.data.sale_return.id, 'return_date', event.data.sale_return.return_date);
    case 'PaymentRecorded':
      return at(event.data.payment.id, 'payment_date', event.data.payment.payment_date);
    case 'PaymentDeleted':
      return at(event.data.id, 'payment_date', null);
    case 'ClearingPaidOut':
      return at(event.data.payout.id, 'payout_date', event.data.payout.payout_date);
    case 'SalaryPaid':
      return at(event.data.salary_payment.id, 'payment_date', event.data.salary_payment.payment_date);
    case 'TransferRecorded':
      return at(event.data.transfer.id, 'transfer_date', event.data.transfer.transfer_date);
    case 'ExpenseRecorded':
    case 'ExpenseUpdated':
      return at(event.data.entry.id, 'expense_date', event.data.entry.expense_date);
    case 'IncomeRecorded':
    case 'IncomeUpdated':
      return at(event.data.entry.id, 'income_date', event.data.entry.income_date);
    case 'ExpenseDeleted':
      return at(event.data.id, 'expense_date', null);
    case 'IncomeDeleted':
      return at(event.data.id, 'income_date', null);
    default:
      return undefined;
  }
}

/** Each record's current business date in a stream, by id: what an edit or delete would move. */
export type RecordDates = Map<string, string>;

export function indexRecordDate(dates: RecordDates, event: DomainEvent): RecordDates {
  const dated = recordDateOf(event);
  if (dated?.date) dates.set(dated.id, dated.date);
  else if (dated) dates.delete(dated.id);
  return dates;
}

/**
 * The close guard: refuses events that write, change or delete a record dated on or before
 * the close, whether by its new date or by the date it has now (`current`). The refusal
 * points at the record's date field.
 */
export function refuseClosedPeriod(
  events: readonly DomainEvent[],
  current: ReadonlyMap<string, string>,
  closedUpTo: string | null,
): void {
  if (closedUpTo === null) return;
  for (const event of events) {
    const dated = recordDateOf(event);
    if (!dated) continue;
    const before = current.get(dated.id);
    const closed = (date: string | null | undefined) => date != null && date <= closedUpTo;
    if (closed(dated.date) || closed(before)) throw conflict(booksClosedMessage(closedUpTo), dated.field);
  }
}

/** Whether any of these events dates a record (and so must pass the close guard). */
export const datesARecord = (events: readonly DomainEvent[]): boolean =>
  events.some((event) => recordDateOf(event) !== undefined);

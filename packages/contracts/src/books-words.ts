// The period close's words, without zod: the frontends import them alone ('@bahi/contracts/books-words').

/** A business date as the app shows it: "31 Oct 2026" (the UI's formatDate, in UTC). */
export const formatBusinessDate = (date: string): string =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** The refusal every write into the closed period gets. */
export const booksClosedMessage = (upTo: string): string =>
  `The books are closed up to ${formatBusinessDate(upTo)}.`;

/**
 * The records an adjustment may correct (issue #30: "a correction of a closed period is an
 * adjustment dated in the open period that references the record it corrects"), and each
 * one's word in the ledger's Particulars.
 */
export const ADJUSTABLE_KINDS = {
  Purchase: 'Purchase',
  Sale: 'Sale',
  Payment: 'Payment',
  Transfer: 'Transfer',
  SalaryPayment: 'Salary',
  ClearingPayout: 'Clearing payout',
  Expense: 'Expense',
  Income: 'Income',
} as const;
export type AdjustableKind = keyof typeof ADJUSTABLE_KINDS;

/** "Purchase of 15 Oct 2026": the record an adjustment corrects, in words. */
export const adjustedRecordWords = (ref: { kind: string; date: string }): string =>
  `${ADJUSTABLE_KINDS[ref.kind as AdjustableKind] ?? ref.kind} of ${formatBusinessDate(ref.date)}`;

/** "Adjusts Purchase of 15 Oct 2026": what an adjustment says of the record it corrects. */
export const adjustsWords = (ref: { kind: string; date: string }): string =>
  `Adjusts ${adjustedRecordWords(ref)}`;

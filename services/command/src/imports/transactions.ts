import type { ImportKind } from '@bahi/contracts';
import { decideExpense, decideIncome, decidePayment } from './cash.ts';
import { decidePurchase } from './purchases.ts';
import { decideSale } from './sales.ts';
import type { DecidedRecord, TransactionRow } from './transaction-row.ts';

/**
 * The transaction kinds of an import (issue #31) and each one's decision: the kind registry the
 * check runs a valid row through (columns.ts has each kind's columns and request schema).
 */
type Decide = (row: TransactionRow<never>) => Promise<DecidedRecord> | DecidedRecord;

/** The kinds that record transactions, each with its decision. */
export const TRANSACTION_KINDS: Partial<Record<ImportKind, Decide>> = {
  purchases: decidePurchase,
  sales: decideSale,
  payments: decidePayment,
  expenses: decideExpense,
  incomes: decideIncome,
};

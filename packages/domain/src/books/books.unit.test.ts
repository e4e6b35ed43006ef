import type { DomainEvent } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { givenWhenThen } from '../testing.ts';
import {
  booksDecider,
  datesARecord,
  indexRecordDate,
  type RecordDates,
  refuseClosedPeriod,
} from './books.ts';

const gwt = givenWhenThen(booksDecider);
const closedOct: DomainEvent = { type: 'BooksClosed', data: { up_to: '2026-10-31', previous: null } };

describe('closing and reopening the books', () => {
  it('closes open books up to a date', () => {
    gwt([])
      .when({ type: 'Close', upTo: '2026-10-31' })
      .thenEvents([{ type: 'BooksClosed', data: { up_to: '2026-10-31', previous: null } }]);
  });

  it('moves the close forward, naming the close it replaces', () => {
    gwt([closedOct])
      .when({ type: 'Close', upTo: '2026-11-30' })
      .thenEvents([{ type: 'BooksClosed', data: { up_to: '2026-11-30', previous: '2026-10-31' } }]);
  });

  it('records nothing when closed at that date already', () => {
    gwt([closedOct]).when({ type: 'Close', upTo: '2026-10-31' }).thenEvents([]);
  });

  it('refuses a close earlier than the current one: that takes a reopening', () => {
    gwt([closedOct])
      .when({ type: 'Close', upTo: '2026-09-30' })
      .thenRefused(
        'conflict',
        /already closed up to 31 Oct 2026: to close an earlier date, reopen them first/,
      );
  });

  it('reopens with a reason, entirely or to an earlier date', () => {
    gwt([closedOct])
      .when({ type: 'Reopen', reason: ' Late invoice ', upTo: null })
      .thenEvents([
        { type: 'BooksReopened', data: { up_to: null, previous: '2026-10-31', reason: 'Late invoice' } },
      ]);
    gwt([closedOct])
      .when({ type: 'Reopen', reason: 'October only', upTo: '2026-09-30' })
      .thenEvents([
        {
          type: 'BooksReopened',
          data: { up_to: '2026-09-30', previous: '2026-10-31', reason: 'October only' },
        },
      ]);
  });

  it('refuses a reopening without a reason, of open books, or to a date not before the close', () => {
    gwt([closedOct])
      .when({ type: 'Reopen', reason: '  ', upTo: null })
      .thenRefused('invalid', /reason/);
    gwt([])
      .when({ type: 'Reopen', reason: 'x', upTo: null })
      .thenRefused('conflict', /not closed/);
    gwt([closedOct])
      .when({ type: 'Reopen', reason: 'x', upTo: '2026-10-31' })
      .thenRefused('invalid', /before 31 Oct 2026/);
  });

  it('after a reopening the books close again at any date', () => {
    gwt([closedOct, { type: 'BooksReopened', data: { up_to: null, previous: '2026-10-31', reason: 'r' } }])
      .when({ type: 'Close', upTo: '2026-09-30' })
      .thenEvents([{ type: 'BooksClosed', data: { up_to: '2026-09-30', previous: null } }]);
  });
});

const expense = (id: string, date: string): DomainEvent => ({
  type: 'ExpenseRecorded',
  data: {
    entry: {
      id,
      city_id: id,
      category: 'Rent',
      amount: '10.00',
      remarks: null,
      expense_date: date,
      paid_from_entity_type: 'Godown',
      paid_from_entity_id: id,
    },
    rate: '1.0000',
    currency: 'INR',
    postings: [],
  },
});
const A = '00000000-0000-4000-8000-00000000000a';
const refusal = (run: () => void) => {
  try {
    run();
  } catch (e) {
    return e as DomainError;
  }
  return undefined;
};

describe('the close guard', () => {
  it('refuses a record dated on or before the close, on its date field, and lets a later one through', () => {
    const error = refusal(() => refuseClosedPeriod([expense(A, '2026-10-31')], new Map(), '2026-10-31'));
    expect(error).toBeInstanceOf(DomainError);
    expect(error?.kind).toBe('conflict');
    expect(error?.message).toBe('The books are closed up to 31 Oct 2026.');
    expect(error?.errors).toEqual([{ msg: 'The books are closed up to 31 Oct 2026.', path: 'expense_date' }]);
    expect(
      refusal(() => refuseClosedPeriod([expense(A, '2026-11-01')], new Map(), '2026-10-31')),
    ).toBeUndefined();
    expect(refusal(() => refuseClosedPeriod([expense(A, '2026-01-01')], new Map(), null))).toBeUndefined();
  });

  it('refuses an edit or delete of a record dated in the closed period, even one moving out of it', () => {
    const dates: RecordDates = indexRecordDate(new Map(), expense(A, '2026-10-15'));
    expect(
      refusal(() => refuseClosedPeriod([expense(A, '2026-11-02')], dates, '2026-10-31'))?.message,
    ).toMatch(/closed up to 31 Oct 2026/);
    const deletion: DomainEvent = { type: 'ExpenseDeleted', data: { id: A, postings: [] } };
    expect(refusal(() => refuseClosedPeriod([deletion], dates, '2026-10-31'))?.errors?.[0]?.path).toBe(
      'expense_date',
    );
    // Deleted: the record no longer has a date.
    expect(indexRecordDate(dates, deletion).has(A)).toBe(false);
  });

  it('knows which events date a record', () => {
    expect(datesARecord([expense(A, '2026-10-15')])).toBe(true);
    expect(datesARecord([closedOct])).toBe(false);
  });
});

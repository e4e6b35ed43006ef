import { describe, expect, it } from 'vitest';
import { markJournalLines, markRecords } from './compare.ts';

const line = (key: string, record: string, particulars = 'Expense') => ({
  key,
  record: { type: 'Expense', id: record },
  particulars,
});

describe('compare: journal lines (ledger, cashbook)', () => {
  it('marks a record first seen since A as added, an edited one as changed on all its lines, a deleted one as removed', () => {
    const then = [line('1.0', 'a'), line('2.0', 'b'), line('3.0', 'c')];
    const shown = [
      ...then,
      line('4.0', 'd'), // a backdated expense keyed after A
      line('5.0', 'b', 'Expense (edited)'),
      line('5.1', 'b', 'Expense (edited)'),
      line('6.0', 'c', 'Expense (deleted)'),
    ];
    const { marks, gone } = markJournalLines(shown, then);
    expect(Object.fromEntries(marks)).toEqual({
      '2.0': 'changed',
      '3.0': 'removed',
      '4.0': 'added',
      '5.0': 'changed',
      '5.1': 'changed',
      '6.0': 'removed',
    });
    expect(marks.has('1.0')).toBe(false);
    expect(gone).toEqual([]);
  });

  it('returns the lines A had that the report shown lacks', () => {
    const then = [line('1.0', 'a'), line('2.0', 'b')];
    const { marks, gone } = markJournalLines([line('1.0', 'a')], then);
    expect(marks.size).toBe(0);
    expect(gone.map((l) => l.key)).toEqual(['2.0']);
  });
});

describe('compare: records (day-wise)', () => {
  const row = (id: string, amount: string, date = '2026-11-01') => ({ id, amount, date });
  it('added, changed by any shown field, and gone', () => {
    const then = [row('a', '10.00'), row('b', '20.00'), row('c', '30.00')];
    const shown = [row('a', '10.00'), row('b', '25.00'), row('d', '1.00', '2026-10-01')];
    const { marks, gone } = markRecords(
      shown,
      then,
      (r) => r.id,
      (r) => [r.date, r.amount],
    );
    expect(Object.fromEntries(marks)).toEqual({ b: 'changed', d: 'added' });
    expect(gone.map((r) => r.id)).toEqual(['c']);
  });
});

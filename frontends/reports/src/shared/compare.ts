/**
 * Compare: the report as known at moment A against the one shown (now, or B). What changed is
 * marked on the lines of the report shown; what A had and the shown report no longer has comes
 * back as `gone`, to be shown struck through.
 */
export type Mark = 'added' | 'changed' | 'removed';

export const MARK_TEXT: Record<Mark, string> = {
  added: 'Added since',
  changed: 'Changed since',
  removed: 'Removed since',
};

/** A line of the journal as a ledger or cashbook shows it: its identity and its record. */
export interface JournalLine {
  key?: string;
  record?: { type: string; id: string };
  particulars: string;
}

const removal = (l: JournalLine) => l.particulars.endsWith('(deleted)');

/**
 * Ledger and cashbook lines. The journal is append-only: an edit or a delete of a record adds
 * lines (the reversal and the new posting) rather than changing old ones. So a record with
 * lines A did not know is marked on every line it has in the report shown: 'added' when A knew
 * none of its lines, 'removed' when a new line is its deletion, else 'changed' (an edit, a
 * return). Lines A had that the shown report lacks (another date range) are `gone`.
 */
export function markJournalLines<T extends JournalLine>(
  shown: T[],
  then: T[],
): { marks: Map<string, Mark>; gone: T[] } {
  const keyOf = (l: T, i: number) => l.key ?? `#${i}`;
  const thenKeys = new Set(then.map(keyOf));
  const thenRecords = new Set(then.map((l) => l.record?.id).filter(Boolean));
  const state = new Map<string, Mark>();
  for (const [i, l] of shown.entries()) {
    if (thenKeys.has(keyOf(l, i))) continue;
    const id = l.record?.id ?? keyOf(l, i);
    const now: Mark = removal(l) ? 'removed' : thenRecords.has(id) ? 'changed' : 'added';
    const before = state.get(id);
    // A deletion outranks an edit, an edit outranks a first appearance of a known record.
    if (!before || now === 'removed' || (now === 'changed' && before === 'added')) state.set(id, now);
  }
  const marks = new Map<string, Mark>();
  for (const [i, l] of shown.entries()) {
    const mark = state.get(l.record?.id ?? keyOf(l, i));
    if (mark) marks.set(keyOf(l, i), mark);
  }
  const shownKeys = new Set(shown.map(keyOf));
  return { marks, gone: then.filter((l, i) => !shownKeys.has(keyOf(l, i))) };
}

/**
 * Rows that are records (the day-wise report): added when A did not have the record, changed
 * when a shown field differs, and A's rows the shown report lacks are `gone` (removed since).
 */
export function markRecords<T>(
  shown: T[],
  then: T[],
  key: (row: T) => string,
  fields: (row: T) => unknown[],
): { marks: Map<string, Mark>; gone: T[] } {
  const before = new Map(then.map((r) => [key(r), JSON.stringify(fields(r))]));
  const marks = new Map<string, Mark>();
  for (const r of shown) {
    const was = before.get(key(r));
    if (was === undefined) marks.set(key(r), 'added');
    else if (was !== JSON.stringify(fields(r))) marks.set(key(r), 'changed');
  }
  const shownKeys = new Set(shown.map(key));
  return { marks, gone: then.filter((r) => !shownKeys.has(key(r))) };
}

import { RECORD_TYPES, type RecordType } from '@bahi/contracts';
import { AMOUNT_SCALE, parseDecimal, round } from '@bahi/domain';
import type { ReadDb } from '@bahi/read-db';
import { sql } from 'kysely';

export const isRecordType = (type: string): type is RecordType =>
  (RECORD_TYPES as readonly string[]).includes(type);

/**
 * The record a journal line belongs to, by the event that posted it. A return's lines belong
 * to its purchase or sale (the journal's record_id of a return is the purchase's or sale's).
 */
const RECORD_OF_EVENT: Readonly<Record<string, RecordType>> = {
  PurchaseRecorded: 'Purchase',
  PurchaseUpdated: 'Purchase',
  PurchaseDeleted: 'Purchase',
  PurchaseReturned: 'Purchase',
  SaleRecorded: 'Sale',
  SaleUpdated: 'Sale',
  SaleDeleted: 'Sale',
  SaleReturned: 'Sale',
  PaymentRecorded: 'Payment',
  ClearingPaidOut: 'ClearingPayout',
  SalaryPaid: 'SalaryPayment',
  TransferRecorded: 'Transfer',
  ExpenseRecorded: 'Expense',
  ExpenseUpdated: 'Expense',
  ExpenseDeleted: 'Expense',
  IncomeRecorded: 'Income',
  IncomeUpdated: 'Income',
  IncomeDeleted: 'Income',
};

/** A line's identity, the same in every read of it: its place in the journal and its record. */
export interface LineIdentity {
  /** `<position>.<line>`: the event's position in the log and the posting's index in it. */
  key: string;
  record: { type: RecordType; id: string };
  /** When the line was recorded (ISO, UTC). */
  recorded_at: string;
}

/** The journal columns a line's identity is made of (select them with `identityColumns`). */
export interface IdentityRow {
  key: string;
  event_type: string;
  record_id: string;
  recorded_at: Date | string;
}

/** Select these next to a journal line's own columns. */
export const identityColumns = [
  sql<string>`position::text || '.' || line::text`.as('key'),
  'event_type',
  'record_id',
  'recorded_at',
] as const;

export function lineIdentity(row: IdentityRow): LineIdentity {
  const type = RECORD_OF_EVENT[row.event_type];
  // The journal projection posts lines for these events alone (journal.projection.ts recordOf).
  if (!type) throw new Error(`A journal line of ${row.event_type} belongs to no known record.`);
  return {
    key: row.key,
    record: { type, id: row.record_id },
    recorded_at: new Date(row.recorded_at).toISOString(),
  };
}

/** How a line stands to its record's corrections (an edit or a delete), when it has one. */
export interface LineCorrection {
  /** superseded: undone by a later edit or delete; reversal: the undoing line; amended: an edit's new line. */
  state: 'superseded' | 'reversal' | 'amended';
  /** The edit or delete: edited or deleted, when (ISO, UTC), and by whom (the user's name). */
  action: 'edited' | 'deleted';
  at: string;
  by: string | null;
}

/** A journal line of one account, as the ledger and the cashbook read it. */
export interface AccountLine extends IdentityRow {
  date: string;
  amount: string;
  currency: string;
  position: string;
  superseded_at: Date | string | null;
  superseded_by: string | null;
  detail: Record<string, unknown> | string | null;
}

/**
 * One account's journal lines over a date range (as known at a moment), each with its words,
 * in business-date order (ties: event order). By default a record shows once, at its current
 * figures (issue #25): the lines an edit or a delete superseded are left out with their
 * reversal wherever all of them fall in the range (they then sum to zero: no balance moves);
 * with `corrections`, every line shows, each with how it stands to its record's corrections.
 * One range scan of the journal; each line carries its words.
 */
export async function readAccountLines(
  db: ReadDb,
  account: string,
  q: { startDate?: string | undefined; endDate?: string | undefined; knownAt?: string | undefined },
  corrections: boolean,
): Promise<Array<AccountLine & { correction: LineCorrection | null }>> {
  let query = db
    .selectFrom('journal')
    .select([
      ...identityColumns,
      sql<string>`business_date::text`.as('date'),
      sql<string>`amount::text`.as('amount'),
      'currency',
      sql<string>`position::text`.as('position'),
      'superseded_at',
      sql<string | null>`superseded_by::text`.as('superseded_by'),
      // The line's own words; a line written before it carried them, its event's (one probe,
      // for those lines alone: coalesce reads the second argument only when the first is null).
      sql<Record<string, unknown> | string | null>`coalesce(words,
        (SELECT detail FROM journal_words w WHERE w.position = journal.position))`.as('detail'),
    ])
    .where('account', '=', account);
  if (q.startDate) query = query.where('business_date', '>=', q.startDate);
  if (q.endDate) query = query.where('business_date', '<=', q.endDate);
  if (q.knownAt) query = query.where('recorded_at', '<=', new Date(q.knownAt));
  const rows: AccountLine[] = await query
    .orderBy('business_date')
    .orderBy('position')
    .orderBy('line')
    .execute();

  const knownAt = q.knownAt ? Date.parse(q.knownAt) : Number.POSITIVE_INFINITY;
  const supersededBy = (r: AccountLine) =>
    r.superseded_at !== null && r.superseded_by !== null && new Date(r.superseded_at).getTime() <= knownAt
      ? r.superseded_by
      : undefined;
  // The lines each correction superseded here: left out together when they sum to zero.
  const groups = new Map<string, bigint>();
  for (const r of rows) {
    const by = supersededBy(r);
    if (by) groups.set(by, (groups.get(by) ?? 0n) + cents(r.amount));
  }
  const shown = corrections ? rows : rows.filter((r) => groups.get(supersededBy(r) ?? '') !== 0n);

  // Who made each correction or edit shown, and when.
  const correctors = new Set<string>();
  for (const r of shown) {
    const by = supersededBy(r);
    if (by) correctors.add(by);
    else if (r.event_type.endsWith('Updated')) correctors.add(r.position);
  }
  const who = new Map<string, { type: string; name: string | null }>();
  if (correctors.size > 0) {
    const found = await db
      .selectFrom('journal_words as w')
      .leftJoin('users as u', (join) => join.on(sql`u.id::text`, '=', sql.ref('w.user_id')))
      .select([sql<string>`w.position::text`.as('position'), 'w.event_type', 'u.name'])
      // By the key itself (a text cast of the column would scan every row of journal_words).
      .where('w.position', 'in', [...correctors])
      .execute();
    for (const f of found) who.set(f.position, { type: f.event_type, name: f.name ?? null });
  }
  return shown.map((r) => {
    const by = supersededBy(r);
    const correction = (): LineCorrection | null => {
      if (by) {
        const c = who.get(by);
        return {
          state: by === r.position ? 'reversal' : 'superseded',
          action: c?.type.endsWith('Deleted') ? 'deleted' : 'edited',
          at: new Date(r.superseded_at!).toISOString(),
          by: c?.name ?? null,
        };
      }
      if (!r.event_type.endsWith('Updated')) return null;
      return {
        state: 'amended',
        action: 'edited',
        at: new Date(r.recorded_at).toISOString(),
        by: who.get(r.position)?.name ?? null,
      };
    };
    return { ...r, correction: correction() };
  });
}

const cents = (text: string) => round(parseDecimal(text), AMOUNT_SCALE).units;

const RECORDED: Readonly<Record<string, string>> = {
  Purchase: 'PurchaseRecorded',
  Sale: 'SaleRecorded',
  Expense: 'ExpenseRecorded',
  Income: 'IncomeRecorded',
};

/**
 * What the Particulars describe each line by: its own words, or, for a reversal, the words of
 * the version it undoes (an edit's own words are the new version's), as that version's kind of
 * event. One query, for the reversals alone.
 */
export async function wordsToDescribe<L extends AccountLine & { correction: LineCorrection | null }>(
  db: ReadDb,
  lines: readonly L[],
): Promise<Array<L & { event_type: string }>> {
  const reversals = lines.filter((l) => l.correction?.state === 'reversal');
  const undone = new Map<string, Record<string, unknown> | string>();
  if (reversals.length > 0) {
    const { rows } = await sql<{ key: string; detail: Record<string, unknown> | string | null }>`
      SELECT r.key, (SELECT w.detail FROM journal_words w
                      WHERE w.record_id = r.record_id AND w.position < r.position
                        AND w.event_type NOT IN ('PurchaseReturned', 'SaleReturned')
                      ORDER BY w.position DESC LIMIT 1) AS detail
        FROM unnest(${reversals.map((l) => l.key)}::text[], ${reversals.map((l) => l.record_id)}::uuid[],
                    ${reversals.map((l) => l.position)}::bigint[]) AS r(key, record_id, position)`.execute(
      db,
    );
    for (const row of rows) if (row.detail) undone.set(row.key, row.detail);
  }
  return lines.map((l) => {
    const detail = undone.get(l.key);
    if (!detail) return l;
    const kind = lineIdentity(l).record.type;
    return { ...l, detail, event_type: RECORDED[kind] ?? l.event_type };
  });
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const day = (iso: string) =>
  `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;

/** A line's Particulars with its correction said in words (the default view keeps '(edited)'). */
export function withCorrection(
  text: string,
  correction: LineCorrection | null,
  corrections: boolean,
): string {
  if (!correction) return text;
  const when = `${day(correction.at)}${correction.by ? ` by ${correction.by}` : ''}`;
  const bare = text.replace(/ \((edited|deleted)\)$/, '');
  switch (correction.state) {
    case 'superseded':
      return correction.action === 'deleted'
        ? `${bare} - deleted on ${when}`
        : `${bare} - replaced by an edit on ${when}`;
    case 'reversal':
      return `Reversal of ${bare} - ${correction.action === 'deleted' ? 'deletion' : 'edit'} of ${when}`;
    case 'amended':
      return corrections ? `${bare} - edited on ${when}` : text;
  }
}

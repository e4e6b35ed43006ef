import { RECORD_TYPES, type RecordType } from '@bahi/contracts';
import { AMOUNT_SCALE, parseDecimal, round } from '@bahi/domain';
import type { ReadDb } from '@bahi/read-db';
import { type RawBuilder, sql } from 'kysely';
import { VersionedCache } from './versioned-cache.ts';

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
  PaymentDeleted: 'Payment',
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

/** A moment as JavaScript writes it ('2026-11-01T10:00:00.123Z'); such text is taken as it is. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const isoUtc = (value: Date | string) =>
  typeof value === 'string' && ISO_UTC.test(value) ? value : new Date(value).toISOString();

export function lineIdentity(row: IdentityRow): LineIdentity {
  const type = RECORD_OF_EVENT[row.event_type];
  // The journal projection posts lines for these events alone (journal.projection.ts recordOf).
  if (!type) throw new Error(`A journal line of ${row.event_type} belongs to no known record.`);
  return {
    key: row.key,
    record: { type, id: row.record_id },
    recorded_at: isoUtc(row.recorded_at),
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

/** The names a book's Particulars give: parties (with their city's currency) and products, by id. */
export interface BookNames {
  parties: Map<string, { name: string; currency: string | null }>;
  products: Map<string, string>;
}

/** JSON as a driver hands it over: parsed already (pg, PGlite) or as text. */
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

/** A line as the statement below builds it (a JSON array, in this order). */
type LineTuple = [
  key: string,
  event_type: string,
  record_id: string,
  recorded_at: string,
  date: string,
  amount: string,
  currency: string,
  position: string,
  superseded_at: string | null,
  superseded_by: string | null,
  detail: Record<string, unknown> | null,
];

/**
 * Every party (with its city's currency) and product by id, remembered per read database at
 * the version of the masters projection a book was read at (the projection's checkpoint, read
 * in the same snapshot as the lines: versioned-cache.ts), as the purchase and sale lists
 * remember their names. Looking the names up from each line's words in the book's statement
 * was 40% of that statement (8 named fields of every line); the names change only with the
 * masters, and a read after any write loads them again.
 */
const bookNameCaches = new WeakMap<ReadDb, VersionedCache<BookNames>>();
async function bookNames(db: ReadDb, version: string | null | undefined): Promise<BookNames> {
  let cache = bookNameCaches.get(db);
  if (!cache) {
    cache = new VersionedCache<BookNames>(1);
    bookNameCaches.set(db, cache);
  }
  return cache.get('', version, async () => {
    const { rows } = await sql<{
      version: string | null;
      parties: Array<[string, string, string | null]> | string;
      products: Array<[string, string]> | string;
    }>`SELECT ${VersionedCache.version('masters')} AS version,
              (SELECT coalesce(json_agg(json_build_array(p.id, p.name, c.currency_name)), '[]')
                 FROM parties p LEFT JOIN cities c ON c.id = p.city_id) AS parties,
              (SELECT coalesce(json_agg(json_build_array(pr.id, pr.name)), '[]') FROM products pr) AS products`.execute(
      db,
    );
    const row = rows[0]!;
    const value: BookNames = {
      parties: new Map(
        json<Array<[string, string, string | null]>>(row.parties).map(([id, name, currency]) => [
          id,
          { name, currency },
        ]),
      ),
      products: new Map(json<Array<[string, string]>>(row.products)),
    };
    return { value, version: row.version };
  });
}

/**
 * One account's journal lines over a date range (as known at a moment), each with its words,
 * in business-date order (ties: event order), and the names of every party and product
 * (bookNames above: shared between reads, not to be changed). By default a record shows once, at
 * its current figures (issue #25): the lines an edit or a delete superseded are left out with their
 * reversal wherever all of them fall in the range (they then sum to zero: no balance moves);
 * with `corrections`, every line shows, each with how it stands to its record's corrections.
 *
 * One statement (issue #28): one range scan of the journal, whose lines carry their words, the
 * masters' version for the names, and the caller's `extra` scalar subqueries (a ledger's party
 * and opening sum), answered as JSON in one row. A round trip costs more than the work here
 * (five of them were most of a ledger's time, bench/src/queries.ts). Another query only for a
 * correction's author and the words a reversal undoes, when the range holds such lines, and
 * for the names when the masters moved since they were read.
 */
export async function readAccountLines<E extends Record<string, unknown> = Record<string, never>>(
  db: ReadDb,
  account: string,
  q: { startDate?: string | undefined; endDate?: string | undefined; knownAt?: string | undefined },
  corrections: boolean,
  options: { extra?: { [K in keyof E]: RawBuilder<E[K]> } } = {},
): Promise<{
  lines: Array<AccountLine & { correction: LineCorrection | null }>;
  names: BookNames;
  extra: E;
}> {
  const where = [
    sql`account = ${account}`,
    ...(q.startDate ? [sql`business_date >= ${q.startDate}::date`] : []),
    ...(q.endDate ? [sql`business_date <= ${q.endDate}::date`] : []),
    ...(q.knownAt ? [sql`recorded_at <= ${new Date(q.knownAt)}`] : []),
  ];
  const extra = Object.entries(options.extra ?? {}) as Array<[string, RawBuilder<unknown>]>;
  const { rows } = await sql<{
    lines: LineTuple[] | string;
    masters_version: string | null;
    [extra: string]: unknown;
  }>`
  WITH l AS MATERIALIZED (
    SELECT position, line, event_type, record_id, recorded_at, business_date, amount, currency,
           superseded_at, superseded_by,
           -- A line written before the lines carried words: its event's (read only for those).
           coalesce(words, (SELECT detail FROM journal_words w WHERE w.position = j.position)) AS words
      FROM journal j
     WHERE ${sql.join(where, sql` AND `)}
  )
  SELECT
    (SELECT coalesce(json_agg(json_build_array(
              l.position::text || '.' || l.line::text, l.event_type, l.record_id,
              to_char(l.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              l.business_date::text, l.amount::text, l.currency, l.position::text, l.superseded_at,
              l.superseded_by::text, l.words)
            ORDER BY l.business_date, l.position, l.line), '[]') FROM l) AS lines,
    ${VersionedCache.version('masters')} AS masters_version
    ${sql.join(
      extra.map(([name, value]) => sql`, ${value} AS ${sql.ref(name)}`),
      sql``,
    )}`.execute(db);
  const row = rows[0]!;
  const names = await bookNames(db, row.masters_version);
  const found: AccountLine[] = json<LineTuple[]>(row.lines).map(
    ([key, event_type, record_id, recorded_at, date, amount, currency, position, at, by, detail]) => ({
      key,
      event_type,
      record_id,
      recorded_at,
      date,
      amount,
      currency,
      position,
      superseded_at: at,
      superseded_by: by,
      detail,
    }),
  );
  return {
    lines: await corrected(db, found, q.knownAt, corrections),
    names,
    extra: Object.fromEntries(extra.map(([name]) => [name, row[name]])) as E,
  };
}

/** Each line with how it stands to its record's corrections; the default view leaves out what cancels. */
async function corrected(
  db: ReadDb,
  rows: AccountLine[],
  at: string | undefined,
  corrections: boolean,
): Promise<Array<AccountLine & { correction: LineCorrection | null }>> {
  const knownAt = at ? Date.parse(at) : Number.POSITIVE_INFINITY;
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
  // In place (these objects are this read's own): a copy of every line is garbage at once.
  const out = shown as Array<AccountLine & { correction: LineCorrection | null }>;
  for (const r of out) r.correction = correctionOf(r, supersededBy(r), who);
  return out;
}

/** How one line stands to its record's corrections (`by`: the correction that superseded it). */
function correctionOf(
  r: AccountLine,
  by: string | undefined,
  who: Map<string, { type: string; name: string | null }>,
): LineCorrection | null {
  if (by) {
    const c = who.get(by);
    return {
      state: by === r.position ? 'reversal' : 'superseded',
      action: c?.type.endsWith('Deleted') ? 'deleted' : 'edited',
      at: isoUtc(r.superseded_at!),
      by: c?.name ?? null,
    };
  }
  if (!r.event_type.endsWith('Updated')) return null;
  return {
    state: 'amended',
    action: 'edited',
    at: isoUtc(r.recorded_at),
    by: who.get(r.position)?.name ?? null,
  };
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

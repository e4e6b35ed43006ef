import type { Posting } from '@bahi/contracts';
import { sql } from 'kysely';
import { chunks, insertRows } from './batch.ts';
import { type Projection, type TypedEvent, typed } from './projection.ts';

/**
 * The record an event's postings belong to and the business date they count on. Returns
 * count on the day of the return but belong to their purchase or sale (a delete undoes them
 * with it); a delete carries no date, so it counts on its record's last known date.
 */
function recordOf(event: TypedEvent): { id: string; date: string | undefined } | undefined {
  switch (event.type) {
    case 'PurchaseRecorded':
    case 'PurchaseUpdated':
      return { id: event.data.purchase.id, date: event.data.purchase.purchase_date };
    case 'SaleRecorded':
    case 'SaleUpdated':
      return { id: event.data.sale.id, date: event.data.sale.sale_date };
    case 'PurchaseReturned':
      return { id: event.data.purchase_return.purchase_id, date: event.data.purchase_return.return_date };
    case 'SaleReturned':
      return { id: event.data.sale_return.sale_id, date: event.data.sale_return.return_date };
    case 'PaymentRecorded':
      return { id: event.data.payment.id, date: event.data.payment.payment_date };
    case 'ClearingPaidOut':
      return { id: event.data.payout.id, date: event.data.payout.payout_date };
    case 'SalaryPaid':
      return { id: event.data.salary_payment.id, date: event.data.salary_payment.payment_date };
    case 'TransferRecorded':
      return { id: event.data.transfer.id, date: event.data.transfer.transfer_date };
    case 'ExpenseRecorded':
    case 'ExpenseUpdated':
      return { id: event.data.entry.id, date: event.data.entry.expense_date };
    case 'IncomeRecorded':
    case 'IncomeUpdated':
      return { id: event.data.entry.id, date: event.data.entry.income_date };
    case 'PurchaseDeleted':
    case 'SaleDeleted':
    case 'PaymentDeleted':
    case 'ExpenseDeleted':
    case 'IncomeDeleted':
      return { id: event.data.id, date: undefined };
    default:
      return undefined;
  }
}

type Rec = Record<string, unknown>;

/** The fields of a record that the query side's Particulars are made of (particulars.ts). */
const WORD_FIELDS = [
  'quantity',
  'product_id',
  'funder_id',
  'agent_id',
  'related_entity_type',
  'related_entity_id',
  'payment_mode',
  'collector_id',
  'godown_id',
  'from_collector_id',
  'to_collector_id',
  'payer_entity_id',
  'month',
  'year',
  'category',
  // The record an adjustment corrects (issue #30): its kind and date, for 'Adjusts Purchase of ...'.
  'adjusts',
] as const;

const pickWords = (data: object): Rec => {
  const out: Rec = {};
  for (const field of WORD_FIELDS) {
    const value = (data as Rec)[field];
    if (value !== undefined && value !== null) out[field] = value;
  }
  return out;
};

/**
 * The record as this event wrote it, for its words; undefined for a delete or a return, whose
 * words come from the record's last version (a return adds its own quantity).
 */
function wordsOf(event: TypedEvent): Rec | undefined {
  switch (event.type) {
    case 'PurchaseRecorded':
    case 'PurchaseUpdated':
      return pickWords(event.data.purchase);
    case 'SaleRecorded':
    case 'SaleUpdated':
      return pickWords(event.data.sale);
    case 'PaymentRecorded':
      return pickWords(event.data.payment);
    case 'ClearingPaidOut':
      return pickWords(event.data.payout);
    case 'SalaryPaid':
      return pickWords(event.data.salary_payment);
    case 'TransferRecorded':
      return pickWords(event.data.transfer);
    case 'ExpenseRecorded':
    case 'ExpenseUpdated':
    case 'IncomeRecorded':
    case 'IncomeUpdated':
      return pickWords(event.data.entry);
    default:
      return undefined;
  }
}

/**
 * A record an import brought in (issue #31) says so in its words: the file and who committed it,
 * from the metadata of its recording event (an undo's reversals carry `importUndo` and no words
 * of their own).
 */
function importedWords(event: TypedEvent, own: Rec | undefined): Rec | undefined {
  const { importFile, importBy, importUndo } = event.metadata;
  if (!own || typeof importFile !== 'string' || importUndo) return own;
  return { ...own, imported: { file: importFile, by: typeof importBy === 'string' ? importBy : null } };
}

const RETURNS = ['PurchaseReturned', 'SaleReturned'];
const returnQuantity = (event: TypedEvent): unknown =>
  event.type === 'PurchaseReturned'
    ? event.data.purchase_return.quantity
    : event.type === 'SaleReturned'
      ? event.data.sale_return.quantity
      : undefined;

/**
 * An edit's reversal lines and the lines they undo, or a delete's and everything of its record:
 * superseded by the event (issue #25: a ledger shows a record once at its current figures, and
 * the trail on request). An edit reverses what its record's recording and earlier edits posted,
 * one line per account and currency (the domain's Posted.reversal(); a cash entry's are per
 * line, and one line per account here): its reversal lines are its first lines that are the
 * negation of those sums. Returns stay: an edit does not undo them, a delete does. Per account,
 * the lines one event supersedes sum to zero: a report that hides them all changes no balance.
 */
async function supersede(
  tx: Parameters<Projection['apply']>[0],
  event: TypedEvent,
  recordId: string,
): Promise<void> {
  const deleted = event.type.endsWith('Deleted');
  const at = event.metadata.recordedAt;
  const position = event.position.toString();
  if (deleted) {
    await sql`UPDATE journal SET superseded_at = ${at}, superseded_by = ${position}
      WHERE record_id = ${recordId} AND (position = ${position} OR (position < ${position} AND superseded_at IS NULL))`.execute(
      tx,
    );
  } else {
    await sql`WITH standing AS (
        SELECT account, currency, sum(amount) AS a, sum(inr) AS i, coalesce(sum(quantity), 0) AS q
          FROM journal
         WHERE record_id = ${recordId} AND position < ${position} AND event_type NOT IN ('PurchaseReturned', 'SaleReturned')
         GROUP BY account, currency
        HAVING sum(amount) <> 0 OR sum(inr) <> 0 OR coalesce(sum(quantity), 0) <> 0),
      reversal AS (
        SELECT DISTINCT ON (j.account, j.currency) j.line
          FROM journal j JOIN standing s ON s.account = j.account AND s.currency = j.currency
         WHERE j.record_id = ${recordId} AND j.position = ${position}
           AND j.amount = -s.a AND j.inr = -s.i AND coalesce(j.quantity, 0) = -s.q
         ORDER BY j.account, j.currency, j.line)
      UPDATE journal SET superseded_at = ${at}, superseded_by = ${position}
        FROM reversal WHERE journal.record_id = ${recordId} AND journal.position = ${position} AND journal.line = reversal.line`.execute(
      tx,
    );
    await sql`UPDATE journal SET superseded_at = ${at}, superseded_by = ${position}
      WHERE record_id = ${recordId} AND position < ${position} AND superseded_at IS NULL
        AND event_type NOT IN ('PurchaseReturned', 'SaleReturned')`.execute(tx);
  }
}

/** The posting lines an event carries (the events that move money or stock carry them). */
const postingsOf = (event: TypedEvent): readonly Posting[] | undefined =>
  'postings' in event.data ? event.data.postings : undefined;

/** Every posting line of every event: the source of balances, ledgers and the day-wise books. */
export const journal: Projection = {
  name: 'journal',
  tables: ['journal', 'account_totals', 'account_days', 'journal_words'],
  // A delete's postings count on its record's last date, looked up by record; a delete's or a
  // return's words are its record's last version's, and an edit supersedes by record too.
  readIndexes: ['journal_record', 'journal_words_record'],
  async apply(tx, events) {
    // A delete counts on its record's last known date: from this batch if the record was
    // written in it, else from the journal (one query for all of them).
    const lastDate = new Map<string, string>();
    const undated = events.flatMap((event) => {
      const record = recordOf(typed(event));
      return record && !record.date ? [record.id] : [];
    });
    for (const ids of chunks([...new Set(undated)])) {
      const known = await tx
        .selectFrom('journal')
        .select(['record_id', sql<string>`business_date::text`.as('business_date')])
        .distinctOn('record_id')
        .where('record_id', 'in', ids)
        .orderBy('record_id')
        .orderBy('position', 'desc')
        .execute();
      for (const row of known) lastDate.set(row.record_id, row.business_date);
    }
    // A delete's and a return's words: their record's last version, from this batch or before.
    const lastWords = new Map<string, Rec>();
    const wordless = events.flatMap((event) => {
      const t = typed(event);
      const record = recordOf(t);
      return record && !wordsOf(t) && postingsOf(t)?.length ? [record.id] : [];
    });
    for (const ids of chunks([...new Set(wordless)])) {
      const known = await tx
        .selectFrom('journal_words')
        .select(['record_id', 'detail'])
        .distinctOn('record_id')
        .where('record_id', 'in', ids)
        .where('event_type', 'not in', RETURNS)
        .orderBy('record_id')
        .orderBy('position', 'desc')
        .execute();
      for (const row of known)
        lastWords.set(row.record_id, typeof row.detail === 'string' ? JSON.parse(row.detail) : row.detail);
    }
    const rows = [];
    const words = [];
    const corrections: Array<{ event: TypedEvent; recordId: string }> = [];
    for (const recorded of events) {
      const event = typed(recorded);
      const postings = postingsOf(event);
      const record = recordOf(event);
      if (!postings || postings.length === 0 || !record) continue;
      const date = record.date ?? lastDate.get(record.id) ?? event.metadata.recordedAt.slice(0, 10);
      lastDate.set(record.id, date);
      const own = importedWords(event, wordsOf(event));
      const last = lastWords.get(record.id) ?? {};
      const quantity = returnQuantity(event);
      const detail = own ?? (quantity === undefined ? last : { ...last, quantity });
      if (own) lastWords.set(record.id, own);
      const said = JSON.stringify(detail);
      words.push({
        position: event.position,
        record_id: record.id,
        event_type: event.type,
        user_id: event.metadata.userId ?? null,
        detail: said,
      });
      if (event.type.endsWith('Updated') || event.type.endsWith('Deleted'))
        corrections.push({ event, recordId: record.id });
      rows.push(
        ...postings.map((p, line) => ({
          position: event.position,
          line,
          event_type: event.type,
          record_id: record.id,
          business_date: date,
          recorded_at: event.metadata.recordedAt,
          account: p.account,
          currency: p.currency,
          amount: p.amount,
          inr: p.inr,
          quantity: p.quantity ?? null,
          words: said,
        })),
      );
    }
    await insertRows(tx, 'journal', rows);
    await insertRows(tx, 'journal_words', words);
    for (const { event, recordId } of corrections) await supersede(tx, event, recordId);
    if (rows.length === 0) return;
    // This batch's lines are the journal's lines of its positions: add them to the sums.
    const [first, last] = [rows[0]!.position, rows.at(-1)!.position];
    await sql`INSERT INTO account_totals (account, currency, amount, inr, quantity)
      SELECT account, currency, sum(amount), sum(inr), coalesce(sum(quantity), 0)
        FROM journal WHERE position BETWEEN ${first} AND ${last} GROUP BY account, currency
      ON CONFLICT (account, currency) DO UPDATE SET amount = account_totals.amount + excluded.amount,
        inr = account_totals.inr + excluded.inr, quantity = account_totals.quantity + excluded.quantity`.execute(
      tx,
    );
    await sql`INSERT INTO account_days (account, currency, business_date, amount, inr, quantity)
      SELECT account, currency, business_date, sum(amount), sum(inr), coalesce(sum(quantity), 0)
        FROM journal WHERE position BETWEEN ${first} AND ${last} GROUP BY account, currency, business_date
      ON CONFLICT (account, currency, business_date) DO UPDATE SET amount = account_days.amount + excluded.amount,
        inr = account_days.inr + excluded.inr, quantity = account_days.quantity + excluded.quantity`.execute(
      tx,
    );
  },
};

import { adjustsWords, MONTH_NAMES } from '@bahi/contracts';
import { format, parseDecimal, QUANTITY_SCALE } from '@bahi/domain';
import { sql } from 'kysely';
import type { QueryDeps } from './deps.ts';
import type { BookNames } from './journal-lines.ts';

/** What a journal line is, in a ledger's or cashbook's Particulars column: the first words. */
export const PARTICULARS: Readonly<Record<string, string>> = {
  PurchaseRecorded: 'Purchase',
  PurchaseUpdated: 'Purchase (edited)',
  PurchaseDeleted: 'Purchase (deleted)',
  PurchaseReturned: 'Purchase return',
  SaleRecorded: 'Sale',
  SaleUpdated: 'Sale (edited)',
  SaleDeleted: 'Sale (deleted)',
  SaleReturned: 'Sale return',
  PaymentRecorded: 'Payment',
  PaymentDeleted: 'Payment (deleted)',
  ClearingPaidOut: 'Clearing payout',
  SalaryPaid: 'Salary',
  TransferRecorded: 'Transfer',
  ExpenseRecorded: 'Expense',
  ExpenseUpdated: 'Expense (edited)',
  ExpenseDeleted: 'Expense (deleted)',
  IncomeRecorded: 'Income',
  IncomeUpdated: 'Income (edited)',
  IncomeDeleted: 'Income (deleted)',
};

/** A journal line to describe: the event that posted it, its position, and its record. */
export interface DescribedLine {
  key: string;
  event_type: string;
  record_id: string;
  /**
   * Its record's words as the journal keeps them (journal_words): given, the activity log is
   * not read for this line. Lines projected before the journal kept words have none.
   */
  detail?: Rec | string | null;
}

/** Whose ledger or cashbook it is (a party's id): the other side of a line is named. */
export interface Viewer {
  id: string;
}

type Rec = Record<string, unknown>;
const MONTHS = MONTH_NAMES;
/** Ids a record names parties by in its Particulars (funders, agents, collectors, godowns). */
export const NAMED_PARTY_FIELDS = [
  'funder_id',
  'agent_id',
  'godown_id',
  'collector_id',
  'related_entity_id',
  'from_collector_id',
  'to_collector_id',
  'payer_entity_id',
] as const;
const RETURNS = new Set(['PurchaseReturned', 'SaleReturned']);
const CHUNK = 2000;

/** A quantity at 4 places ('120.0000'), exactly (half away from zero past the 4th place). */
export function quantityText(value: string): string {
  try {
    return format(parseDecimal(value), QUANTITY_SCALE);
  } catch {
    return value;
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const chunked = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * The Particulars of journal lines in words: to or from whom, the category, the product and
 * quantity ('Purchase: 120.0000 Cumin from Asha Traders', 'Payment from Usha (INR)', 'Transfer
 * to Imran', 'Expense: Rent', 'Salary: Kiran, November 2026', 'Sale return: 5.0000 Cumin'),
 * with '(edited)' or '(deleted)' last for an edit's or a delete's lines. The record is as the
 * line's own event wrote it (the activity log's entry at the line's position: a delete's is the
 * data it removed); names are today's (parties and products). A fixed number of queries for any
 * number of lines: the activity entries (with, for returns, their purchase's or sale's), the
 * parties, the products. A line whose entry is not found keeps the bare word.
 */
export async function describeLines(
  deps: QueryDeps,
  lines: DescribedLine[],
  viewer: Viewer,
  /** Names read already (journal-lines.ts readAccountLines): only the others are looked up. */
  known?: BookNames,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (lines.length === 0) return out;
  const found = new Map<string, { line: DescribedLine; data: Rec; parent?: Rec }>();
  for (const line of lines) {
    if (line.detail === undefined || line.detail === null) continue;
    // JSON as its column holds it (a driver may hand jsonb over as text); a return's words
    // carry its record's product already.
    const data: Rec = typeof line.detail === 'string' ? JSON.parse(line.detail) : line.detail;
    found.set(line.key, { line, data, ...(RETURNS.has(line.event_type) ? { parent: data } : {}) });
  }
  const older = lines.filter((l) => !found.has(l.key));
  if (older.length > 0) await describeFromActivityLog(deps, older, found);
  return name(deps, found, viewer, out, known);
}

/** Lines projected before the journal kept its words: their records from the activity log. */
async function describeFromActivityLog(
  deps: QueryDeps,
  lines: DescribedLine[],
  found: Map<string, { line: DescribedLine; data: Rec; parent?: Rec }>,
): Promise<void> {
  const ids = [...new Set(lines.map((l) => l.record_id))];
  const returnOf = [...new Set(lines.filter((l) => RETURNS.has(l.event_type)).map((l) => l.record_id))];
  const entries: Array<{ position: string; record_id: string; data: Rec | null; parent: string | null }> = [];
  for (const part of chunked(ids)) {
    const returns = returnOf.filter((id) => part.includes(id));
    const rows = await deps.readDb
      .selectFrom('activity_log')
      .select([
        sql<string>`position::text`.as('position'),
        'record_id',
        sql<Rec | null>`coalesce(new_data, old_data)`.as('data'),
        sql<string | null>`coalesce(new_data->>'purchase_id', new_data->>'sale_id')`.as('parent'),
      ])
      .where((eb) =>
        returns.length === 0
          ? eb('record_id', 'in', part)
          : eb.or([
              eb('record_id', 'in', part),
              eb(sql<string>`new_data->>'purchase_id'`, 'in', returns),
              eb(sql<string>`new_data->>'sale_id'`, 'in', returns),
            ]),
      )
      .execute();
    entries.push(...rows);
  }
  // A line's entry: at its position, of its record (a return's: of its purchase or sale).
  const atPosition = new Map<string, Rec>();
  const byRecord = new Map<string, Array<{ position: bigint; data: Rec }>>();
  for (const e of entries) {
    if (!e.data) continue;
    // JSON as its column holds it (a driver may hand jsonb over as text).
    const data: Rec = typeof e.data === 'string' ? JSON.parse(e.data) : e.data;
    atPosition.set(`${e.position}:${e.parent ?? e.record_id}`, data);
    if (!e.parent) {
      const list = byRecord.get(e.record_id) ?? [];
      list.push({ position: BigInt(e.position), data });
      byRecord.set(e.record_id, list);
    }
  }
  for (const line of lines) {
    const position = line.key.split('.')[0]!;
    const data = atPosition.get(`${position}:${line.record_id}`);
    if (!data) continue;
    let parent: Rec | undefined;
    if (RETURNS.has(line.event_type)) {
      // The purchase or sale as it stood when it was returned: its latest entry before the return.
      const at = BigInt(position);
      for (const e of byRecord.get(line.record_id) ?? [])
        if (e.position < at && str(e.data.product_id)) parent = e.data;
    }
    found.set(line.key, { line, data, ...(parent ? { parent } : {}) });
  }
}

/**
 * The lines' words with today's names of the parties and products they name: two queries, for
 * the names not known already.
 */
async function name(
  deps: QueryDeps,
  found: Map<string, { line: DescribedLine; data: Rec; parent?: Rec }>,
  viewer: Viewer,
  out: Map<string, string>,
  known?: BookNames,
): Promise<Map<string, string>> {
  // The names known are shared between reads (journal-lines.ts bookNames): the others go here.
  const parties = new Map<string, { name: string; currency: string | null }>();
  const products = new Map<string, string>();
  const partyIds = new Set<string>();
  const productIds = new Set<string>();
  for (const { data, parent } of found.values()) {
    for (const field of NAMED_PARTY_FIELDS) {
      const id = str(data[field]);
      if (id && !known?.parties.has(id)) partyIds.add(id);
    }
    const product = str(data.product_id) ?? str(parent?.product_id);
    if (product && !known?.products.has(product)) productIds.add(product);
  }
  for (const part of chunked([...partyIds])) {
    const rows = await deps.readDb
      .selectFrom('parties as p')
      .leftJoin('cities as c', 'c.id', 'p.city_id')
      .select(['p.id', 'p.name', 'c.currency_name'])
      .where('p.id', 'in', part)
      .execute();
    for (const r of rows) parties.set(r.id, { name: r.name, currency: r.currency_name });
  }
  for (const part of chunked([...productIds])) {
    const rows = await deps.readDb
      .selectFrom('products')
      .select(['id', 'name'])
      .where('id', 'in', part)
      .execute();
    for (const r of rows) products.set(r.id, r.name);
  }

  // One set of look-ups for every line (closures made per line cost a ledger 5% of its CPU:
  // the bundles' keepNames wraps each one).
  const party = (id: unknown) =>
    str(id) ? (known?.parties.get(id as string) ?? parties.get(id as string)) : undefined;
  const names: Names = {
    name: (id) => party(id)?.name ?? 'unknown',
    currency: (id) => party(id)?.currency ?? null,
    product: (id) =>
      (str(id) ? (known?.products.get(id as string) ?? products.get(id as string)) : undefined) ??
      'unknown product',
  };
  for (const [key, { line, data, parent }] of found) {
    const text = describe(line.event_type, data, parent, viewer, names);
    if (text) out.set(key, text);
  }
  return out;
}

/** Each PARTICULARS word split once: 'Purchase (edited)' is the base 'Purchase' and ' (edited)'. */
const WORD_PARTS: Readonly<Record<string, { base: string; suffix: string }>> = Object.fromEntries(
  Object.entries(PARTICULARS).map(([type, word]) => {
    const [, base = word, suffix = ''] = /^(.*?)( \((?:edited|deleted)\))?$/.exec(word) ?? [];
    return [type, { base, suffix }];
  }),
);

interface Names {
  name: (id: unknown) => string;
  currency: (id: unknown) => string | null;
  product: (id: unknown) => string;
}

/** '120.0000 Cumin': a quantity and its product. */
function quantityOf(n: Names, quantity: unknown, product: unknown): string {
  return `${quantityText(String(quantity ?? '0'))} ${n.product(product)}`;
}

/** One line's words; the PARTICULARS word first and its '(edited)'/'(deleted)' last. */
function describe(
  type: string,
  d: Rec,
  parent: Rec | undefined,
  viewer: Viewer,
  n: Names,
): string | undefined {
  const parts = WORD_PARTS[type];
  if (!parts) return undefined;
  const { base, suffix } = parts;
  let body: string;
  switch (type) {
    case 'PurchaseRecorded':
    case 'PurchaseUpdated':
    case 'PurchaseDeleted':
      body = `${base}: ${quantityOf(n, d.quantity, d.product_id)} from ${n.name(d.funder_id)}`;
      break;
    case 'SaleRecorded':
    case 'SaleUpdated':
    case 'SaleDeleted':
      body = `${base}: ${quantityOf(n, d.quantity, d.product_id)} to ${n.name(d.agent_id)}`;
      break;
    case 'PurchaseReturned':
    case 'SaleReturned':
      body = `${base}: ${quantityOf(n, d.quantity, parent?.product_id)}`;
      break;
    case 'PaymentRecorded':
    case 'PaymentDeleted': {
      const party = d.related_entity_id;
      const currency = d.payment_mode === 'INR' ? 'INR' : n.currency(party);
      const direction = d.related_entity_type === 'Funder' ? 'to' : 'from';
      // In the party's own ledger, the collector or godown that paid or received it.
      const handler = d.collector_id ?? d.godown_id;
      const via = party === viewer.id && handler ? ` via ${n.name(handler)}` : '';
      body = `${base} ${direction} ${n.name(party)}${via}${currency ? ` (${currency})` : ''}`;
      break;
    }
    case 'TransferRecorded':
      body =
        viewer.id === d.from_collector_id
          ? `${base} to ${n.name(d.to_collector_id)}`
          : viewer.id === d.to_collector_id
            ? `${base} from ${n.name(d.from_collector_id)}`
            : `${base} from ${n.name(d.from_collector_id)} to ${n.name(d.to_collector_id)}`;
      break;
    case 'SalaryPaid': {
      const month = MONTHS[Number(d.month) - 1];
      body = `${base}: ${n.name(d.collector_id)}${month ? `, ${month} ${String(d.year)}` : ''}`;
      break;
    }
    case 'ClearingPaidOut':
      body =
        viewer.id === d.godown_id
          ? `${base} by ${n.name(d.payer_entity_id)}`
          : `${base} for ${n.name(d.godown_id)}`;
      break;
    case 'ExpenseRecorded':
    case 'ExpenseUpdated':
    case 'ExpenseDeleted':
    case 'IncomeRecorded':
    case 'IncomeUpdated':
    case 'IncomeDeleted':
      body = `${base}: ${String(d.category ?? '')}`;
      break;
    default:
      return undefined;
  }
  // A return names its record, not what the record adjusts; '(edited)' or '(deleted)' stays last
  // (the corrections trail replaces it, journal-lines.ts).
  return `${body}${RETURNS.has(type) ? '' : adjustment(d.adjusts)}${importedFrom(type, d.imported)}${suffix}`;
}

/**
 * An adjustment's words after its record's (issue #30): '. Adjusts Purchase of 15 Oct 2026', from
 * the reference its event carries (kind and date as they were when it was written).
 */
function adjustment(ref: unknown): string {
  if (typeof ref !== 'object' || ref === null) return '';
  const { kind, date } = ref as Rec;
  return typeof kind === 'string' && typeof date === 'string' ? `. ${adjustsWords({ kind, date })}` : '';
}

/**
 * An imported record's words after its own (issue #31): '. Imported from purchases.xlsx by Asha',
 * on the line of its recording only (an edit since is the user's own, and says so).
 */
function importedFrom(type: string, imported: unknown): string {
  if (!type.endsWith('Recorded') || typeof imported !== 'object' || imported === null) return '';
  const { file, by } = imported as Rec;
  if (typeof file !== 'string') return '';
  return `. Imported from ${file}${typeof by === 'string' ? ` by ${by}` : ''}`;
}

import { createHash } from 'node:crypto';
import type {
  BalancesReport,
  CashbookRow,
  DaywiseRow,
  LedgerLine,
  LedgerReport,
  PartyRow,
  PaymentRow,
  SalaryRow,
  StockMap,
} from '@bahi/contracts';
import type { ReportName, ReportSource } from '@bahi/report-jobs';
import { isDecimal, subtractDecimals, sumDecimals } from './decimal.ts';

export {
  FORMATS,
  REPORT_NAMES,
  type ReportFormat,
  type ReportName,
  type ReportSource,
} from '@bahi/report-jobs';

export type ColumnKind = 'text' | 'date' | 'money' | 'quantity';
export interface Column {
  key: string;
  header: string;
  kind: ColumnKind;
  /** PDF width in points (fixed widths: the table is drawn without measuring its cells); XLSX width is derived from it. */
  width: number;
  /**
   * A zero amount shows as '-' (the cashbook and ledger columns, as on screen): printed '-' in
   * the PDF, and a numeric cell whose number format shows zero as '-' in the XLSX.
   */
  dashZero?: boolean;
}
export type Row = Record<string, string | null | undefined>;
export interface TotalRow {
  label: string;
  values: Row;
  tone?: 'positive' | 'negative';
}
export interface Labelled {
  label: string;
  value: string;
}

/** A report as a table, ready for either renderer: everything is text, amounts exact decimals. */
export interface ReportDocument {
  report: ReportName;
  title: string;
  /** Without extension. */
  fileName: string;
  filters: Labelled[];
  /** The books' business date (`asOf`) and recording moment (`knownAt`) the report was read at. */
  asOf?: string | undefined;
  knownAt?: string | undefined;
  summary: Labelled[];
  columns: Column[];
  rows: Row[];
  totals: TotalRow[];
  emptyText: string;
}

const day = (v: string | undefined) => (v ? v.slice(0, 10) : undefined);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A business date as the app shows it ('24 Nov 2026'); text that is not a date stays as it is. */
export function dayInWords(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
}

/** A moment in words, in UTC ('24 Nov 2026, 10:15:02 UTC'); text that is not a moment stays. */
export function momentInWords(value: string): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  const iso = at.toISOString();
  return `${dayInWords(iso)}, ${iso.slice(11, 19)} UTC`;
}

/**
 * Which books a file shows, in words: the business date it is as of (when asked) and the moment
 * of recording it shows them as (the `knownAt` asked for, else the moment the report was read).
 */
export function booksLine(doc: Pick<ReportDocument, 'asOf' | 'knownAt'>, generatedAt: string): string {
  const recorded = `as recorded at ${momentInWords(doc.knownAt ?? generatedAt)}`;
  return doc.asOf ? `Books as of ${dayInWords(doc.asOf)}, ${recorded}` : `Books ${recorded}`;
}

/**
 * The code an auditor quotes (issue #25: "log position" is no word a clerk knows): a digest of
 * what the file shows - the report, its filters and books line, every figure - the position in
 * the event log it was read at and, when the log is sealed (issue #30), the chain head at that
 * position. The same report of the same books, downloaded again, has the same code; any changed
 * figure, another position, another chain head, or an altered file does not. The full digest,
 * the position and the chain head go in the file's properties (`verificationKeywords`), where
 * `npm run verify -- --report <file>` reads them.
 */
export function verificationDigest(doc: ReportDocument, position: string, chainHead?: string): string {
  const { report, title, filters, asOf, knownAt, summary, columns, rows, totals } = doc;
  return createHash('sha256')
    .update(
      JSON.stringify({
        report,
        title,
        filters,
        asOf,
        knownAt,
        summary,
        columns,
        rows,
        totals,
        position,
        chain: chainHead, // left out (undefined) for a file read without a chain: its code is as before
      }),
    )
    .digest('hex');
}

/** The digest as people read it: the first twelve of its hex digits in groups of four. */
export const verificationCode = (digest: string) =>
  digest
    .slice(0, 12)
    .toUpperCase()
    .replace(/(.{4})(?=.)/g, '$1-');

/**
 * The footer line: the code, and the chain head at the file's position (its first twelve hex
 * digits, grouped like the code) with that position, for an auditor to compare with the log.
 */
export const verificationLine = (digest: string, chain?: { hash: string; position: string }) =>
  `Verification code ${verificationCode(digest)}${chain ? ` \u00b7 Chain ${verificationCode(chain.hash)} at ${chain.position}` : ''}`;

/** Where a program finds the read position, the full digest and the chain head (PDF Keywords, XLSX keywords). */
export const verificationKeywords = (digest: string, position: string, chainHead?: string) =>
  `bahi-read-position=${position} bahi-verification=${digest}${chainHead ? ` bahi-chain=${chainHead}` : ''}`;

/** What a file's keywords say; undefined when they are not Bahi's. */
export function parseVerificationKeywords(
  keywords: string,
): { position: string; digest: string; chainHead?: string } | undefined {
  const m = /bahi-read-position=(\d+) bahi-verification=([0-9a-f]{64})(?: bahi-chain=([0-9a-f]{64}))?/.exec(
    keywords,
  );
  if (!m) return undefined;
  return { position: m[1]!, digest: m[2]!, ...(m[3] ? { chainHead: m[3] } : {}) };
}

/** A name as part of a file name: letters (with their vowel signs) and digits, the rest one '_'. */
const slug = (name: string) =>
  name
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);

/** `_{city}` when the report was asked for one city (its name, else nothing). */
function cityPart(source: ReportSource): string {
  const id = source.params.city_id;
  const name = id ? source.names?.[id] : undefined;
  const part = name ? slug(name) : '';
  return part ? `_${part}` : '';
}
const sum = (rows: Row[], key: string) =>
  sumDecimals(rows.map((r) => r[key]).filter((v): v is string => isDecimal(v)));

/** The date range among the filters; `asOf` and `knownAt` are the books line's (`booksLine`). */
function dateFilters(p: Record<string, string>): Labelled[] {
  const out: Labelled[] = [];
  if (p.startDate) out.push({ label: 'From', value: dayInWords(p.startDate) });
  if (p.endDate) out.push({ label: 'To', value: dayInWords(p.endDate) });
  return out;
}

const when = (p: Record<string, string>) => ({ asOf: day(p.asOf), knownAt: p.knownAt || undefined });

function named(source: ReportSource, key: string, label: string): Labelled[] {
  const id = source.params[key];
  if (!id) return [];
  return [{ label, value: source.names?.[id] ?? id }];
}

/** Income/expense style tables end with a Total row and a Net Total row (green when 0 or more). */
function netTotals(rows: Row[], inKey: string, outKey: string): TotalRow[] {
  const totalIn = sum(rows, inKey);
  const totalOut = sum(rows, outKey);
  const net = subtractDecimals(totalIn, totalOut);
  return [
    { label: 'Total', values: { [inKey]: totalIn, [outKey]: totalOut } },
    { label: 'Net Total', values: { [inKey]: net }, tone: net.startsWith('-') ? 'negative' : 'positive' },
  ];
}

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
/**
 * A report's rows, typed by its contract (@bahi/contracts); [] when the JSON holds none. The
 * query side answered with the route's own response schema, so the rows have its shape.
 */
const rowsOf = <R>(v: unknown): R[] => (Array.isArray(v) ? (v as R[]) : []);
/** A list report's page: its rows. */
const pageRows = (v: unknown): unknown => (v && typeof v === 'object' && 'data' in v ? v.data : undefined);

/**
 * A payment's currency: the query side's `currency` (a payment in the INR mode is in INR, else
 * in its party's city's); without it, INR for the INR mode and 'unknown currency' otherwise,
 * never mixed in with a known one.
 */
const paymentCurrency = (r: PaymentRow) =>
  text(r.currency) ?? (r.payment_mode === 'INR' ? 'INR' : 'unknown currency');
/** A salary is in its collector's city's currency, whichever account paid it. */
const salaryCurrency = (r: SalaryRow) => text(r.currency) ?? 'unknown currency';
/** The currencies among rows, in order of first appearance. */
const currencies = (rows: Row[]) => [...new Set(rows.map((r) => r.currency ?? 'unknown currency'))];

type Params = ReportSource['params'];

function stockDocument(source: ReportSource, p: Params): ReportDocument {
  const data = (source.data ?? {}) as StockMap;
  const rows: Row[] = [];
  // Godowns are told apart by id: two of one name are listed under it together.
  const godowns = new Set<string>();
  for (const [godown, items] of Object.entries(data))
    for (const item of items) {
      godowns.add(item.godown_id ?? godown);
      rows.push({ godown, product: item.product_name, quantity: item.quantity });
    }
  return {
    report: 'stock',
    title: 'Stock Report',
    fileName: p.asOf ? `stock_report_${day(p.asOf)}` : 'stock_report',
    filters: dateFilters(p),
    ...when(p),
    summary: [{ label: 'Godowns', value: String(godowns.size) }],
    columns: [
      { key: 'godown', header: 'Godown', kind: 'text', width: 200 },
      { key: 'product', header: 'Product', kind: 'text', width: 200 },
      { key: 'quantity', header: 'Quantity', kind: 'quantity', width: 100 },
    ],
    rows,
    // Quantities of different products do not add up; only a godown's lines are listed.
    totals: [],
    emptyText: 'No stock available in any godown.',
  };
}

function ledgerDocument(source: ReportSource, p: Params): ReportDocument {
  const d = source.data as LedgerReport;
  const entity: Partial<LedgerReport['entity']> = d.entity ?? {};
  const rows = rowsOf<LedgerLine>(d.transactions).map((t) => ({
    date: text(t.date),
    particulars: text(t.particulars),
    type: text(t.type),
    debit: text(t.debit),
    credit: text(t.credit),
    balance: text(t.balance),
  }));
  const name = String(entity.name ?? p.id);
  // Every amount is in the account's currency: the party's city's, INR for a godown.
  const cur = text(entity.currency) ?? 'unknown currency';
  const range =
    p.startDate || p.endDate ? `_${day(p.startDate) ?? 'start'}_to_${day(p.endDate) ?? 'today'}` : '';
  return {
    report: 'ledger',
    title: `Ledger: ${name} (${p.type})`,
    fileName: `ledger_${p.type}_${slug(name)}${range}`,
    filters: dateFilters(p),
    ...when(p),
    summary: [
      { label: `Opening Balance (${cur})`, value: String(d.openingBalance) },
      { label: `Total Debit (${cur})`, value: String(d.totalDebit) },
      { label: `Total Credit (${cur})`, value: String(d.totalCredit) },
      { label: `Closing Balance (${cur})`, value: String(d.closingBalance) },
    ],
    columns: [
      { key: 'date', header: 'Date', kind: 'date', width: 62 },
      { key: 'particulars', header: 'Particulars', kind: 'text', width: 150 },
      { key: 'type', header: 'Type', kind: 'text', width: 42 },
      { key: 'debit', header: `Debit (${cur})`, kind: 'money', width: 78, dashZero: true },
      { key: 'credit', header: `Credit (${cur})`, kind: 'money', width: 78, dashZero: true },
      { key: 'balance', header: `Balance (${cur})`, kind: 'money', width: 82 },
    ],
    rows,
    totals: [
      {
        label: 'Total',
        values: {
          debit: String(d.totalDebit),
          credit: String(d.totalCredit),
          balance: String(d.closingBalance),
        },
      },
    ],
    emptyText: 'No data found.',
  };
}

function daywiseDocument(source: ReportSource, p: Params): ReportDocument {
  const rows = rowsOf<DaywiseRow>(source.data).map((r) => ({
    date: text(r.date),
    category: text(r.category),
    remarks: text(r.remarks),
    income: r.type === 'Income' ? text(r.amount) : null,
    expense: r.type === 'Income' ? null : text(r.amount),
  }));
  return {
    report: 'daywise-report',
    title: 'Day-wise Report',
    // The file name the product promises (spec section 7).
    fileName: `daywise_report_${day(p.startDate) ?? 'start'}_to_${day(p.endDate) ?? 'end'}`,
    filters: [
      ...dateFilters(p),
      ...named(source, 'city_id', 'City'),
      ...(p.category ? [{ label: 'Category', value: p.category }] : []),
    ],
    ...when(p),
    summary: [],
    columns: [
      { key: 'date', header: 'Date', kind: 'date', width: 62 },
      { key: 'category', header: 'Category', kind: 'text', width: 110 },
      { key: 'remarks', header: 'Remarks', kind: 'text', width: 160 },
      { key: 'income', header: 'Income (INR)', kind: 'money', width: 80 },
      { key: 'expense', header: 'Expense (INR)', kind: 'money', width: 80 },
    ],
    rows,
    totals: netTotals(rows, 'income', 'expense'),
    emptyText: 'No transactions found for the selected filters.',
  };
}

function cashbookDocument(source: ReportSource, p: Params): ReportDocument {
  // One cash account: its lines are all in its currency (the collector's city's, or INR).
  const lines = rowsOf<CashbookRow>(source.data);
  const cur = text(lines[0]?.currency) ?? (p.entity_type === 'Godown' ? 'INR' : null);
  const inCur = (header: string) => (cur ? `${header} (${cur})` : header);
  const rows = lines.map((r) => ({
    date: text(r.date),
    particulars: text(r.particulars),
    cash_in: text(r.cash_in),
    cash_out: text(r.cash_out),
  }));
  return {
    report: 'cashbook-report',
    title: 'Cashbook Report',
    fileName: `cashbook_report${cityPart(source)}_${day(p.startDate) ?? 'start'}_to_${day(p.endDate) ?? 'end'}`,
    filters: [
      ...dateFilters(p),
      ...named(source, 'city_id', 'City'),
      ...named(source, 'entity_id', p.entity_type ?? 'Account'),
    ],
    ...when(p),
    summary: [],
    columns: [
      { key: 'date', header: 'Date', kind: 'date', width: 70 },
      { key: 'particulars', header: 'Particulars', kind: 'text', width: 220 },
      { key: 'cash_in', header: inCur('Cash In'), kind: 'money', width: 100, dashZero: true },
      { key: 'cash_out', header: inCur('Cash Out'), kind: 'money', width: 100, dashZero: true },
    ],
    rows,
    totals: netTotals(rows, 'cash_in', 'cash_out'),
    emptyText: 'No cash transactions found for the selected filters.',
  };
}

function balancesDocument(source: ReportSource, p: Params): ReportDocument {
  const d = (source.data ?? {}) as Partial<BalancesReport>;
  const rows: Row[] = [];
  for (const [kind, label] of [
    ['funders', 'Funder'],
    ['agents', 'Agent'],
    ['collectors', 'Collector'],
    ['godowns', 'Godown'],
  ] as const) {
    for (const r of rowsOf<PartyRow>(d[kind]?.data)) {
      const city = r.city ?? null;
      const opening = String(r.opening_balance ?? '0');
      const movements = String(r.balance?.amount ?? '0');
      rows.push({
        kind: label,
        name: text(r.name),
        city: city ? text(city.name) : null,
        currency: city ? text(city.currency_name) : 'INR',
        opening,
        current: sumDecimals([opening, movements]),
      });
    }
  }
  // Balances are in each city's currency: totals are per kind and currency, never mixed.
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const key = `${r.kind} (${r.currency})`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return {
    report: 'balances',
    title: 'Balances Report',
    fileName: `balances_report${cityPart(source)}${p.asOf ? `_${day(p.asOf)}` : ''}`,
    filters: [
      ...dateFilters(p),
      ...named(source, 'city_id', 'City'),
      ...(p.search ? [{ label: 'Search', value: p.search }] : []),
    ],
    ...when(p),
    summary: [],
    columns: [
      { key: 'kind', header: 'Type', kind: 'text', width: 60 },
      { key: 'name', header: 'Name', kind: 'text', width: 150 },
      { key: 'city', header: 'City', kind: 'text', width: 80 },
      { key: 'currency', header: 'Currency', kind: 'text', width: 55 },
      { key: 'opening', header: 'Opening Balance', kind: 'money', width: 85 },
      { key: 'current', header: 'Current Balance', kind: 'money', width: 85 },
    ],
    rows,
    totals: [...groups].map(([label, group]) => ({
      label: `Total ${label}`,
      values: { opening: sum(group, 'opening'), current: sum(group, 'current') },
    })),
    emptyText: 'No balances found for the selected filters.',
  };
}

function paymentsDocument(source: ReportSource, p: Params): ReportDocument {
  const rows = rowsOf<PaymentRow>(pageRows(source.data)).map((r) => ({
    date: text(r.payment_date),
    type: text(r.type),
    entity: text(r.relatedEntityName),
    handler: text(r.handlerEntityName),
    currency: paymentCurrency(r),
    amount: text(r.amount),
  }));
  // Money paid to funders and money received from agents are totalled apart, per currency.
  const totals: TotalRow[] = [];
  for (const currency of currencies(rows))
    for (const [type, label] of [
      ['Payment To', 'Paid to funders'],
      ['Payment From', 'Received from agents'],
    ] as const) {
      const group = rows.filter((r) => r.currency === currency && r.type === type);
      if (group.length)
        totals.push({ label: `${label} (${currency})`, values: { amount: sum(group, 'amount') } });
    }
  return {
    report: 'payments',
    title: 'Payments Report',
    fileName: `payments_report${cityPart(source)}_${day(p.startDate) ?? 'start'}_to_${day(p.endDate) ?? 'end'}`,
    filters: [
      ...dateFilters(p),
      ...named(source, 'city_id', 'City'),
      ...(p.related_entity_type ? [{ label: 'Entity Type', value: p.related_entity_type }] : []),
    ],
    ...when(p),
    summary: [],
    columns: [
      { key: 'date', header: 'Date', kind: 'date', width: 65 },
      { key: 'type', header: 'Type', kind: 'text', width: 80 },
      { key: 'entity', header: 'Entity', kind: 'text', width: 140 },
      { key: 'handler', header: 'Handler', kind: 'text', width: 120 },
      { key: 'currency', header: 'Currency', kind: 'text', width: 50 },
      { key: 'amount', header: 'Amount', kind: 'money', width: 90 },
    ],
    rows,
    totals,
    emptyText: 'No payments found for the selected filters.',
  };
}

function salaryDocument(source: ReportSource, p: Params): ReportDocument {
  const rows = rowsOf<SalaryRow>(pageRows(source.data)).map((r) => ({
    date: text(r.payment_date),
    collector: text(r.collectorName),
    period: r.month && r.year ? `${String(r.month).padStart(2, '0')}/${r.year}` : null,
    currency: salaryCurrency(r),
    amount: text(r.amount),
    payer: text(r.payerName),
    remarks: text(r.remarks),
  }));
  return {
    report: 'salary-report',
    title: 'Salary Payments Report',
    fileName: `salary_report${cityPart(source)}${p.year ? `_${p.year}` : ''}${p.month ? `_${String(p.month).padStart(2, '0')}` : ''}`,
    filters: [
      ...named(source, 'city_id', 'City'),
      ...named(source, 'collector_id', 'Collector'),
      ...(p.month ? [{ label: 'Month', value: p.month }] : []),
      ...(p.year ? [{ label: 'Year', value: p.year }] : []),
    ],
    ...when(p),
    summary: [],
    columns: [
      { key: 'date', header: 'Paid On', kind: 'date', width: 65 },
      { key: 'collector', header: 'Collector (Payee)', kind: 'text', width: 120 },
      { key: 'period', header: 'Salary For', kind: 'text', width: 60 },
      { key: 'currency', header: 'Currency', kind: 'text', width: 50 },
      { key: 'amount', header: 'Amount', kind: 'money', width: 80 },
      { key: 'payer', header: 'Paid From', kind: 'text', width: 100 },
      { key: 'remarks', header: 'Remarks', kind: 'text', width: 100 },
    ],
    rows,
    // Salaries are paid in each city's currency (or INR): a total per currency.
    totals: currencies(rows).map((currency) => ({
      label: `Total (${currency})`,
      values: {
        amount: sum(
          rows.filter((r) => r.currency === currency),
          'amount',
        ),
      },
    })),
    emptyText: 'No salary payments found for the selected filters.',
  };
}

/** Each report's table, from the JSON its on-screen report answered (typed by the contracts). */
const DOCUMENTS: Record<ReportName, (source: ReportSource, p: Params) => ReportDocument> = {
  stock: stockDocument,
  ledger: ledgerDocument,
  'daywise-report': daywiseDocument,
  'cashbook-report': cashbookDocument,
  balances: balancesDocument,
  payments: paymentsDocument,
  'salary-report': salaryDocument,
};

/** Turns a report's JSON (as the on-screen report answered it) into a table. */
export function toDocument(source: ReportSource): ReportDocument {
  return DOCUMENTS[source.report](source, source.params);
}

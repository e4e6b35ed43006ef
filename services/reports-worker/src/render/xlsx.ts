import { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { formatDecimal, isDecimal } from './decimal.ts';
import {
  booksLine,
  type Column,
  dayInWords,
  momentInWords,
  type ReportDocument,
  type Row,
  verificationDigest,
  verificationKeywords,
  verificationLine,
} from './document.ts';
import { escapeFormula } from './escape.ts';
import type { RenderMeta } from './pdf.ts';

// exceljs takes most of a second to load: loaded when a workbook is first made, not at start-up.
const loadExcel = async () => (await import('exceljs')).default;

const MONEY = '#,##0.00;[Red]-#,##0.00';
/** A zero shows as '-' (the third section), as in the PDF; the cell stays a number for sums. */
const MONEY_DASH = '#,##0.00;[Red]-#,##0.00;"-"';
const QUANTITY = '#,##0.0000';
/** Dates as the app shows them: 24 Nov 2026. */
const DATE = 'd mmm yyyy';

/** Excel's longest sheet name, in UTF-16 units: what Excel and exceljs count. */
const SHEET_NAME_MAX = 31;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Spaces and `'` at either end: Excel refuses a name that starts or ends with `'`. */
const trimName = (name: string) => name.replace(/^[\s']+|[\s']+$/g, '');

/**
 * A worksheet name Excel opens without repairing the file: none of `\ / ? * [ ] :` nor control
 * characters, single spaces, at most 31 UTF-16 units cut between whole characters (a cut inside
 * an emoji's surrogate pair left a U+FFFD, so the cut is at a grapheme cluster, or at a code
 * point when the first cluster alone is too long), no `'` first or last, not Excel's reserved
 * "History", never empty. A workbook has one sheet, so no two names need telling apart.
 */
export function sheetName(title: string): string {
  const clean = trimName(title.replace(/[\\/?*[\]:\p{Cc}]/gu, ' ').replace(/\s+/g, ' '));
  let name = '';
  for (const { segment } of graphemes.segment(clean)) {
    if (name.length + segment.length > SHEET_NAME_MAX) break;
    name += segment;
  }
  if (!name)
    for (const ch of clean) {
      if (name.length + ch.length > SHEET_NAME_MAX) break;
      name += ch;
    }
  name = trimName(name);
  if (name.toLowerCase() === 'history') return 'History report';
  return name || 'Report';
}

/** How wide a value shows, in characters: amounts as formatted, dates as '24 Nov 2026'. */
function shownLength(column: Column, value: string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  if (column.kind === 'money' && isDecimal(value)) return formatDecimal(value, 2).length;
  if (column.kind === 'quantity' && isDecimal(value)) return formatDecimal(value, 4).length;
  if (column.kind === 'date') return dayInWords(value).length;
  return Math.max(...value.split(/\r?\n/).map((l) => [...l].length));
}

/**
 * Each column as wide as its widest content (header, cells, totals; the first column also the
 * summary and total labels), within 8 to 60 characters. Heading lines (name, title, filters)
 * overflow into the empty cells beside them and do not count.
 */
function columnWidths(doc: ReportDocument): number[] {
  return doc.columns.map((c, i) => {
    let widest = [...c.header].length;
    for (const r of doc.rows) widest = Math.max(widest, shownLength(c, r[c.key]));
    for (const t of doc.totals) widest = Math.max(widest, shownLength(c, t.values[c.key]));
    if (i === 0) {
      for (const s of doc.summary) widest = Math.max(widest, [...s.label].length);
      for (const t of doc.totals) widest = Math.max(widest, [...t.label].length);
    }
    if (i === 1)
      for (const s of doc.summary) widest = Math.max(widest, shownLength({ ...c, kind: 'money' }, s.value));
    return Math.min(60, Math.max(8, widest + 2));
  });
}

/**
 * A cell's value. Amounts become numbers here and only here: an XLSX numeric cell is an IEEE
 * double, so this is the one place exact decimal text turns into floating point (15
 * significant digits: exact for any amount below 10^13 at 2 decimals). Text is escaped against
 * formula injection; dates become date cells.
 */
function cellValue(column: Column, value: string | null | undefined): ExcelJS.CellValue {
  if (value === null || value === undefined || value === '') return null;
  if ((column.kind === 'money' || column.kind === 'quantity') && isDecimal(value)) return Number(value);
  if (column.kind === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return new Date(`${value}T00:00:00Z`);
  if (column.kind === 'date') return escapeFormula(dayInWords(value));
  return escapeFormula(value);
}

const text = (value: string) => escapeFormula(value);

/**
 * The report as an XLSX workbook, written with exceljs' streaming WorkbookWriter (rows are
 * committed as they are written, so a 100,000-row sheet does not sit in memory as objects):
 * a heading block, a frozen header row with an autofilter over the data, numeric cells with
 * number formats, and the totals below the filtered range.
 */
export async function renderXlsx(doc: ReportDocument, meta: RenderMeta): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const finished = new Promise<void>((resolve, reject) => {
    sink.on('finish', () => resolve());
    sink.on('error', reject);
  });
  const workbook = new (await loadExcel()).stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Bahi';
  workbook.created = new Date(meta.generatedAt);
  // The read position and the whole digest where a program finds them (the document properties).
  const digest = verificationDigest(doc, meta.position, meta.chainHead);
  const chain = meta.chainHead ? { hash: meta.chainHead, position: meta.position } : undefined;
  workbook.title = doc.title;
  workbook.subject = `${booksLine(doc, meta.generatedAt)}. ${verificationLine(digest, chain)}`;
  workbook.keywords = verificationKeywords(digest, meta.position, meta.chainHead);

  const heading: ExcelJS.CellValue[][] = [
    [text(meta.businessName)],
    [text(doc.title)],
    ...(doc.filters.length ? [[text(doc.filters.map((f) => `${f.label}: ${f.value}`).join('    '))]] : []),
    [text(booksLine(doc, meta.generatedAt))],
    [`Generated ${momentInWords(meta.generatedAt)}`],
    // Summary amounts (opening, closing) as numbers; counts and words as text.
    ...doc.summary.map((s) => [text(s.label), isDecimal(s.value) ? Number(s.value) : text(s.value)]),
  ];
  const headerRow = heading.length + 2;
  const sheet = workbook.addWorksheet(sheetName(doc.title), {
    views: [{ state: 'frozen', ySplit: headerRow, xSplit: 0 }],
  });
  const widths = columnWidths(doc);
  sheet.columns = doc.columns.map((c, i) => ({
    key: c.key,
    width: widths[i]!,
    ...(c.kind === 'money' ? { style: { numFmt: c.dashZero ? MONEY_DASH : MONEY } } : {}),
    ...(c.kind === 'quantity' ? { style: { numFmt: QUANTITY } } : {}),
    ...(c.kind === 'date' ? { style: { numFmt: DATE } } : {}),
  }));

  heading.forEach((values, i) => {
    const row = sheet.addRow(values);
    if (i < 2) row.font = { bold: true, size: i === 0 ? 14 : 12 };
    const summary = doc.summary[i - (heading.length - doc.summary.length)];
    if (summary && /^-?\d+\.\d+$/.test(summary.value)) row.getCell(2).numFmt = MONEY;
    row.commit();
  });
  sheet.addRow([]).commit();
  const header = sheet.addRow(doc.columns.map((c) => c.header));
  header.font = { bold: true };
  header.eachCell((cell, n) => {
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF4' } };
    if (doc.columns[n - 1]?.kind === 'money' || doc.columns[n - 1]?.kind === 'quantity')
      cell.alignment = { horizontal: 'right' };
  });
  header.commit();

  for (const r of doc.rows) sheet.addRow(rowValues(doc.columns, r)).commit();
  const lastData = headerRow + doc.rows.length;
  sheet.autoFilter = {
    from: { row: headerRow, column: 1 },
    to: { row: Math.max(lastData, headerRow), column: doc.columns.length },
  };
  if (doc.rows.length === 0) sheet.addRow([text(doc.emptyText)]).commit();
  for (const total of doc.totals) {
    const values = rowValues(doc.columns, total.values);
    values[0] = text(total.label);
    const row = sheet.addRow(values);
    row.font = { bold: true };
    // Totals print zero as 0.00, as in the PDF.
    doc.columns.forEach((c, i) => {
      if (c.kind === 'money' && i > 0) row.getCell(i + 1).numFmt = MONEY;
    });
    row.commit();
  }
  sheet.addRow([]).commit();
  const foot = sheet.addRow([verificationLine(digest, chain)]);
  foot.font = { size: 8, color: { argb: 'FF8A8A8A' } };
  foot.commit();
  sheet.commit();
  await workbook.commit();
  await finished;
  return Buffer.concat(chunks);
}

function rowValues(columns: Column[], row: Row): ExcelJS.CellValue[] {
  return columns.map((c) => cellValue(c, row[c.key]));
}

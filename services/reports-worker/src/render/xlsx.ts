import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { isDecimal } from './decimal.ts';
import type { Column, ReportDocument, Row } from './document.ts';
import { escapeFormula } from './escape.ts';
import type { RenderMeta } from './pdf.ts';

const MONEY = '#,##0.00;[Red]-#,##0.00';
const QUANTITY = '#,##0.###';

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
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Bahi';
  workbook.created = new Date(meta.generatedAt);

  const heading: ExcelJS.CellValue[][] = [
    [text(meta.businessName)],
    [text(doc.title)],
    ...(doc.filters.length ? [[text(doc.filters.map((f) => `${f.label}: ${f.value}`).join('    '))]] : []),
    [`Generated ${meta.generatedAt}, read at position ${meta.position}`],
    // Summary amounts (opening, closing) as numbers; counts and words as text.
    ...doc.summary.map((s) => [text(s.label), isDecimal(s.value) ? Number(s.value) : text(s.value)]),
  ];
  const headerRow = heading.length + 2;
  const sheet = workbook.addWorksheet(doc.title.slice(0, 31).replace(/[\\/?*[\]:]/g, ' '), {
    views: [{ state: 'frozen', ySplit: headerRow, xSplit: 0 }],
  });
  sheet.columns = doc.columns.map((c) => ({
    key: c.key,
    width: Math.max(10, Math.round(c.width / 5.5)),
    ...(c.kind === 'money' ? { style: { numFmt: MONEY } } : {}),
    ...(c.kind === 'quantity' ? { style: { numFmt: QUANTITY } } : {}),
    ...(c.kind === 'date' ? { style: { numFmt: 'yyyy-mm-dd' } } : {}),
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
    row.commit();
  }
  sheet.commit();
  await workbook.commit();
  await finished;
  return Buffer.concat(chunks);
}

function rowValues(columns: Column[], row: Row): ExcelJS.CellValue[] {
  return columns.map((c) => cellValue(c, row[c.key]));
}

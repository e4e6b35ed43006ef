import type ExcelJS from 'exceljs';

// exceljs takes most of a second to load: loaded when a workbook is first made, not at start-up.
const loadExcel = async () => (await import('exceljs')).default;

/**
 * A spreadsheet as rows of cells, whatever it came as (XLSX through exceljs, CSV through the small
 * parser below), with what a person must be told about a cell: that it is merged, holds a formula
 * or an error value. Nothing here decides what a cell means; cells.ts reads it for its column.
 */
export type RawValue = string | number | boolean | Date | null;

export interface RawCell {
  value: RawValue;
  /** Part of a merged range (its address, e.g. "B4:B6"). */
  merged?: string;
  /** The formula text, without '='. */
  formula?: string;
  /** An error value the sheet shows (#REF!, #DIV/0!). */
  error?: string;
}

export interface Sheet {
  /** Row number (1-based, as the sheet shows it) -> cells by column number (1-based). */
  rows: Array<{ number: number; cells: Map<number, RawCell> }>;
}

export type ReadResult = { ok: true; sheet: Sheet; sheetName: string } | { ok: false; message: string };

/** XLSX (a zip) or CSV, by the file's first bytes rather than its name. */
export const isZip = (bytes: Buffer) => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;

export async function readXlsx(bytes: Buffer, wantedSheet: string): Promise<ReadResult> {
  const workbook = new (await loadExcel()).Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    return {
      ok: false,
      message:
        'The file could not be read as an Excel workbook (.xlsx). Save it from Excel as .xlsx or as CSV UTF-8.',
    };
  }
  const sheets = workbook.worksheets;
  const wanted = sheets.find((s) => s.name.trim().toLowerCase() === wantedSheet.toLowerCase());
  const worksheet = wanted ?? (sheets.length === 1 ? sheets[0] : undefined);
  if (!worksheet) {
    const names = sheets.map((s) => `"${s.name}"`).join(', ') || 'none';
    return {
      ok: false,
      message: `The workbook has no sheet named "${wantedSheet}" (its sheets: ${names}). Put the rows on a sheet named "${wantedSheet}", as in the template.`,
    };
  }
  const merges = mergedRanges(worksheet);
  const rows: Sheet['rows'] = [];
  worksheet.eachRow({ includeEmpty: false }, (row, number) => {
    const cells = new Map<number, RawCell>();
    row.eachCell({ includeEmpty: false }, (cell, col) => {
      cells.set(col, rawCell(cell, merges.get(`${number}:${col}`)));
    });
    // A merged range's other cells are empty in the file: they are marked too, so the message
    // lands on each cell the person sees as merged.
    for (const [key, range] of merges) {
      const [r, c] = key.split(':').map(Number) as [number, number];
      if (r === number && !cells.has(c)) cells.set(c, { value: null, merged: range });
    }
    rows.push({ number, cells });
  });
  return { ok: true, sheet: { rows }, sheetName: worksheet.name };
}

/** Every cell of every merged range, by "row:col", with the range's address. */
function mergedRanges(worksheet: ExcelJS.Worksheet): Map<string, string> {
  const out = new Map<string, string>();
  const model = (worksheet as unknown as { model?: { merges?: string[] } }).model;
  for (const range of model?.merges ?? []) {
    const [from, to] = range.split(':');
    const a = parseAddress(from ?? '');
    const b = parseAddress(to ?? from ?? '');
    if (!a || !b) continue;
    for (let r = a.row; r <= b.row; r++) for (let c = a.col; c <= b.col; c++) out.set(`${r}:${c}`, range);
  }
  return out;
}

function parseAddress(address: string): { row: number; col: number } | undefined {
  const m = /^\$?([A-Z]+)\$?(\d+)$/.exec(address.trim().toUpperCase());
  if (!m) return undefined;
  let col = 0;
  for (const ch of m[1]!) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(m[2]), col };
}

function rawCell(cell: ExcelJS.Cell, merged: string | undefined): RawCell {
  const out: RawCell = { value: null };
  if (merged) out.merged = merged;
  const v = cell.value as unknown;
  if (v === null || v === undefined) return out;
  if (typeof v === 'object' && !(v instanceof Date)) {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) {
      out.formula = String(o.formula ?? o.sharedFormula ?? '');
      const result = o.result;
      out.value =
        result === undefined || result === null || typeof result === 'object' ? null : (result as RawValue);
      return out;
    }
    if ('error' in o) {
      out.error = String(o.error);
      return out;
    }
    if ('richText' in o && Array.isArray(o.richText)) {
      out.value = (o.richText as Array<{ text?: string }>).map((t) => t.text ?? '').join('');
      return out;
    }
    if ('text' in o) {
      out.value = String(o.text); // a hyperlink: its text
      return out;
    }
    out.value = null;
    return out;
  }
  out.value = v as RawValue;
  return out;
}

/**
 * CSV as RFC 4180 writes it (quotes, doubled quotes, line breaks inside quotes), read as UTF-8
 * with or without a byte-order mark, separated by commas (or semicolons, as some European Excel
 * settings save it, when the header line has semicolons and no comma). Read in one pass,
 * character by character, so a large file is never split into lines and rejoined.
 */
export function readCsv(bytes: Buffer): ReadResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return {
      ok: false,
      message:
        'The CSV file is not UTF-8 text. In Excel, save it as "CSV UTF-8 (Comma delimited)", or upload the .xlsx.',
    };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const separator = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  const rows: Sheet['rows'] = [];
  let cells = new Map<number, RawCell>();
  let field = '';
  let quoted = false;
  let inQuotes = false;
  let col = 1;
  let line = 1;
  let rowStart = 1;
  const endField = () => {
    const value = quoted ? field : field;
    if (value !== '' || quoted) cells.set(col, { value });
    field = '';
    quoted = false;
    col++;
  };
  const endRow = () => {
    endField();
    if ([...cells.values()].some((c) => c.value !== '')) rows.push({ number: rowStart, cells });
    cells = new Map();
    col = 1;
    rowStart = line;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else inQuotes = false;
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && field === '') {
      inQuotes = true;
      quoted = true;
    } else if (ch === separator) endField();
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      line++;
      endRow();
    } else field += ch;
  }
  if (inQuotes)
    return {
      ok: false,
      message: `The CSV file has a quote opened on line ${rowStart} that is never closed.`,
    };
  if (field !== '' || cells.size > 0) endRow();
  return { ok: true, sheet: { rows }, sheetName: 'CSV' };
}

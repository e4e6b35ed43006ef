import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';

/** Real readers for the files the worker makes: poppler for PDF, exceljs for XLSX. */
export function pdfText(pdf: Buffer, options: { first?: number; last?: number } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-pdf-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    const range = [
      ...(options.first ? ['-f', String(options.first)] : []),
      ...(options.last ? ['-l', String(options.last)] : []),
    ];
    return execFileSync('pdftotext', ['-layout', ...range, join(dir, 'r.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function pdfPages(pdf: Buffer): number {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-pdf-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    const info = execFileSync('pdfinfo', [join(dir, 'r.pdf')], { encoding: 'utf8' });
    return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The document information (Title, Subject, Keywords, ...), as pdfinfo lists it. */
export function pdfInfo(pdf: Buffer): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-pdf-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    const info = execFileSync('pdfinfo', [join(dir, 'r.pdf')], { encoding: 'utf8' });
    const out: Record<string, string> = {};
    for (const m of info.matchAll(/^([^:\n]+):\s*(.*)$/gm)) out[m[1]!.trim()] = m[2]!.trim();
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The embedded fonts, as pdffonts lists them. */
export function pdfFonts(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-pdf-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    return execFileSync('pdffonts', [join(dir, 'r.pdf')], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Page `page` as a PNG (pdftoppm), written to `out`. */
export function pdfPagePng(pdf: Buffer, page: number, out: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-pdf-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '80',
      '-f',
      String(page),
      '-l',
      String(page),
      join(dir, 'r.pdf'),
      join(dir, 'p'),
    ]);
    const png = readdirSync(dir).find((f) => f.endsWith('.png'))!;
    writeFileSync(out, readFileSync(join(dir, png)));
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function readWorkbook(xlsx: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  // exceljs' types predate Node's generic Buffer.
  await workbook.xlsx.load(xlsx as unknown as ExcelJS.Buffer);
  return workbook;
}

export async function readXlsx(xlsx: Buffer): Promise<ExcelJS.Worksheet> {
  return (await readWorkbook(xlsx)).worksheets[0]!;
}

/** How many pixels of page `page` carry ink (pdftoppm, greyscale at 100 dpi). */
export function pdfDarkPixels(pdf: Buffer, page = 1): number {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-pdf-'));
  try {
    writeFileSync(join(dir, 'r.pdf'), pdf);
    const pgm = execFileSync('pdftoppm', [
      '-gray',
      '-r',
      '100',
      '-f',
      String(page),
      '-l',
      String(page),
      join(dir, 'r.pdf'),
    ]);
    // Binary PGM: "P5", width, height, max value, then one byte a pixel.
    const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 50).toString('latin1'));
    if (!header) throw new Error('pdftoppm did not answer a PGM image');
    const pixels = pgm.subarray(header[0].length);
    let dark = 0;
    for (const value of pixels) if (value < 192) dark++;
    return dark;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

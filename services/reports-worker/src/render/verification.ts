import { readFile } from 'node:fs/promises';
import type ExcelJS from 'exceljs';
import { parseVerificationKeywords, verificationCode } from './document.ts';

// exceljs takes most of a second to load: loaded when a workbook is first made, not at start-up.
const loadExcel = async () => (await import('exceljs')).default;

export interface FileVerification {
  format: 'pdf' | 'xlsx';
  /** The event-log position the report was read at. */
  position: string;
  /** The whole digest its verification code is the start of. */
  digest: string;
  /** The code printed at the file's foot. */
  code: string;
  /** The sealed chain head at the position (absent on files made before the seal, or without one). */
  chainHead?: string;
}

/**
 * What a report file says about where it was read (issue #30): its position, digest and chain
 * head, from the PDF's Info Keywords or the XLSX's document keywords (verificationKeywords).
 * Undefined when the file carries none (not a Bahi report, or too old).
 */
export async function readFileVerification(path: string): Promise<FileVerification | undefined> {
  const bytes = await readFile(path);
  let format: FileVerification['format'];
  let keywords: string;
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
    format = 'pdf';
    // pdfkit writes the Info dictionary uncompressed, its ASCII strings as literals (...), each
    // either in place or as an object of its own (/Keywords 18 0 R ... 18 0 obj (...) endobj).
    const text = bytes.toString('latin1');
    const ref = /\/Keywords\s+(\d+)\s+(\d+)\s+R/.exec(text);
    const literal = ref
      ? new RegExp(`(?:^|\\s)${ref[1]}\\s+${ref[2]}\\s+obj\\s*\\(([^)]*)\\)`).exec(text)
      : /\/Keywords\s*\(([^)]*)\)/.exec(text);
    keywords = literal?.[1] ?? '';
  } else if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    format = 'xlsx';
    const book = new (await loadExcel()).Workbook();
    await book.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    keywords = book.keywords ?? '';
  } else return undefined;
  const found = parseVerificationKeywords(keywords);
  return found && { format, ...found, code: verificationCode(found.digest) };
}

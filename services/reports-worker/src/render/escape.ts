/**
 * Spreadsheet formula injection (OWASP "CSV injection"): a text cell that starts with one of
 * these characters may be run as a formula by Excel or LibreOffice, so it gets a leading
 * apostrophe and is stored as plain text. Numbers are written as numeric cells, never as text,
 * so a negative amount is not affected.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

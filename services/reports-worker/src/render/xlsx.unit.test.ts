import { describe, expect, it } from 'vitest';
import { readWorkbook } from '../testing/readers.ts';
import { toDocument } from './document.ts';
import { renderXlsx } from './xlsx.ts';

const meta = { businessName: 'Shree Traders', generatedAt: '2026-11-21T10:00:00.000Z', position: '3' };

/** The sheet name a report titled `title` gets, as exceljs reads the workbook back. */
async function sheetNameOf(title: string): Promise<string> {
  const doc = toDocument({ report: 'stock', params: {}, data: {} });
  doc.title = title;
  // exceljs' reader applies Excel's rules: a name that breaks one does not load.
  const book = await readWorkbook(await renderXlsx(doc, meta));
  expect(book.worksheets).toHaveLength(1);
  const name = book.worksheets[0]!.name;
  expect(name.length).toBeGreaterThan(0);
  expect(name.length).toBeLessThanOrEqual(31); // UTF-16 units, as Excel counts
  expect(name).not.toMatch(/[\\/?*[\]:]/);
  expect(name).not.toMatch(/^'|'$/);
  expect(name).not.toMatch(/\p{Cs}|\uFFFD/u); // no half of a surrogate pair, no replacement character
  return name;
}

describe('XLSX sheet names that Excel accepts', () => {
  it('replaces the characters Excel forbids and keeps single spaces', async () => {
    expect(await sheetNameOf('Ledger: A/B\\C [x]*?')).toBe('Ledger A B C x');
  });

  it('cuts a long title to 31 characters, between words when the cut lands on a space', async () => {
    expect(await sheetNameOf('Ledger: Shree Ganesh Trading Company (Agent)')).toBe(
      'Ledger Shree Ganesh Trading Com',
    );
    // The 31st character is a space: the name ends before it.
    expect(await sheetNameOf('Ledger: Shree Ganesh Trading Co Ltd (Agent)')).toBe(
      'Ledger Shree Ganesh Trading Co',
    );
  });

  it('never cuts an emoji in half: the one that would cross the limit is left out whole', async () => {
    // 'Ledger ' + 23 letters = 30 units; the emoji is two more.
    const name = await sheetNameOf(`Ledger: ${'a'.repeat(23)}😀 (Agent)`);
    expect(name).toBe(`Ledger ${'a'.repeat(23)}`);
    // One that fits (30 + 2 = 32 > 31 above; here 29 + 2 = 31) stays whole.
    expect(await sheetNameOf(`Ledger: ${'a'.repeat(22)}😀 (Agent)`)).toBe(`Ledger ${'a'.repeat(22)}😀`);
    // A flag is two code points and one character: kept or left out whole.
    expect(await sheetNameOf(`Ledger: ${'a'.repeat(21)}🇮🇳 x`)).toBe(`Ledger ${'a'.repeat(21)}`);
  });

  it('never starts or ends with an apostrophe, also when the cut lands after one', async () => {
    expect(await sheetNameOf("'Quoted' Traders'")).toBe("Quoted' Traders");
    // The 31st character is an apostrophe.
    expect(await sheetNameOf("Ledger: Shree Ganesh Trading Co' Depot (Agent)")).toBe(
      'Ledger Shree Ganesh Trading Co',
    );
    expect(await sheetNameOf("Ledger: O'Brien (Agent)")).toBe("Ledger O'Brien (Agent)");
  });

  it('is never empty nor the name Excel reserves', async () => {
    expect(await sheetNameOf(':/?* []')).toBe('Report');
    expect(await sheetNameOf("''")).toBe('Report');
    expect(await sheetNameOf('History')).toBe('History report');
    expect(await sheetNameOf('history')).toBe('History report');
  });

  it('keeps names in other scripts, cut between whole characters', async () => {
    expect(await sheetNameOf('Ledger: सुरेश Patel (Funder)')).toBe('Ledger सुरेश Patel (Funder)');
    // A control character (from pasted data) is not written into the workbook's XML.
    expect(await sheetNameOf('Ledger:\u0007王小明\t商行')).toBe('Ledger 王小明 商行');
  });
});

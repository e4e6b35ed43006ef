/// <reference path="../pdfkit.d.ts" />
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { pdfFonts, pdfPages, pdfText, readXlsx } from '../testing/readers.ts';
import { toDocument } from './document.ts';
import { DEFAULT_FAMILY, loadFonts } from './fonts.ts';
import { renderPdf } from './pdf.ts';
import { composed, FIGURES, figuresComposable, type PdfkitFont } from './shaping.ts';
import { renderXlsx } from './xlsx.ts';

const meta = { businessName: 'Shree Traders', generatedAt: '2026-11-21T10:00:00.000Z', position: '4242' };

/** A ledger of `n` lines as the query side answers it, with a few awkward names. */
function ledger(n: number) {
  const transactions = Array.from({ length: n }, (_, i) => ({
    date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
    particulars:
      i === 1 ? '=HYPERLINK("http://x","y")' : i === 2 ? '@SUM(A1)' : i === 3 ? 'राम ट्रेडर्स' : 'Purchase',
    type: i % 2 ? 'Debit' : 'Credit',
    debit: i % 2 ? '1000.10' : '0.00',
    credit: i % 2 ? '0.00' : '250.05',
    balance: '0.00',
  }));
  return toDocument({
    report: 'ledger',
    params: { type: 'Funder', id: 'f1', startDate: '2026-01-01T00:00:00.000Z', endDate: '2026-01-31' },
    data: {
      entity: { name: 'सुरेश Patel' },
      openingBalance: '500.00',
      totalDebit: '1234567.89',
      totalCredit: '-0.01',
      closingBalance: '-99.50',
      transactions,
    },
  });
}

describe('PDF files, read back with poppler', () => {
  it('prints the heading, filters, generated-at, totals and page numbers, with the header on every page', async () => {
    const pdf = await renderPdf(ledger(200), meta);
    const pages = pdfPages(pdf);
    expect(pages).toBeGreaterThan(2);
    const text = pdfText(pdf);
    expect(text).toContain('Shree Traders');
    expect(text).toContain('Ledger: सुरेश Patel (Funder)');
    expect(text).toMatch(/From: 2026-01-01\s+To: 2026-01-31/);
    expect(text).toContain('Generated 2026-11-21 10:00:00 UTC, read at position 4242');
    expect(text).toContain(`Page ${pages} of ${pages}`);
    // Totals, right-aligned at 2 decimals with grouping.
    expect(text).toMatch(/Total\s+12,34,567\.89\s+-0\.01\s+-99\.50/);
    expect(text).toMatch(/1,000\.10/);
    // The table header is repeated on every page.
    for (let page = 1; page <= pages; page++) {
      expect(pdfText(pdf, { first: page, last: page })).toMatch(
        /Date\s+Particulars\s+Type\s+Debit\s+Credit\s+Balance/,
      );
    }
  });

  it('embeds its fonts, with a Noto font for a name in Devanagari', async () => {
    const fonts = pdfFonts(await renderPdf(ledger(5), meta));
    expect(fonts).toMatch(/Roboto/);
    expect(fonts).toMatch(/NotoSansDevanagari/);
    // Every font is embedded (the "emb" column), none of the standard 14.
    for (const line of fonts.split('\n').slice(2).filter(Boolean)) expect(line).toMatch(/\byes\s+yes\b/);
  });

  it('says so when there are no rows, and the day-wise report has Total and Net Total', async () => {
    const doc = toDocument({
      report: 'daywise-report',
      params: { startDate: '2026-01-01', endDate: '2026-01-31' },
      data: [
        {
          date: '2026-01-02',
          category: 'Rent',
          remarks: null,
          type: 'Expense',
          amount: '100.10',
          amount_entered: '100.10',
        },
        {
          date: '2026-01-03',
          category: 'Sale',
          remarks: 'x',
          type: 'Income',
          amount: '50.05',
          amount_entered: '50.05',
        },
      ],
    });
    expect(doc.fileName).toBe('daywise_report_2026-01-01_to_2026-01-31');
    const text = pdfText(await renderPdf(doc, meta));
    expect(text).toMatch(/Total\s+50\.05\s+100\.10/);
    expect(text).toMatch(/Net Total\s+-50\.05/);
    const empty = pdfText(await renderPdf(toDocument({ report: 'stock', params: {}, data: {} }), meta));
    expect(empty).toContain('No stock available in any godown.');
  });
});

describe('time travel on the file', () => {
  it('prints As of and As recorded at on the stock, day-wise and cashbook files, in both formats', async () => {
    const params = { asOf: '2026-11-30', knownAt: '2026-11-21T10:00:00.000Z' };
    const docs = [
      toDocument({
        report: 'stock',
        params,
        data: { Main: [{ godown_id: 'g', product_id: 'p', product_name: 'Cumin', quantity: '13.0000' }] },
      }),
      toDocument({
        report: 'daywise-report',
        params: { ...params, startDate: '2026-11-01', endDate: '2026-11-30' },
        data: [{ date: '2026-11-03', category: 'Rent', remarks: null, type: 'Expense', amount: '1.00' }],
      }),
      toDocument({
        report: 'cashbook-report',
        params: { ...params, entity_type: 'Collector', entity_id: 'c' },
        data: [{ date: '2026-11-03', particulars: 'Expense', cash_in: '0.00', cash_out: '1.00' }],
      }),
    ];
    for (const doc of docs) {
      expect(doc.filters, doc.report).toEqual(
        expect.arrayContaining([
          { label: 'As of', value: '2026-11-30' },
          { label: 'As recorded at', value: '2026-11-21T10:00:00.000Z' },
        ]),
      );
      expect(pdfText(await renderPdf(doc, meta)), doc.report).toMatch(
        /As of: 2026-11-30\s+As recorded at: 2026-11-21T10:00:00\.000Z/,
      );
      const cells: unknown[] = [];
      (await readXlsx(await renderXlsx(doc, meta))).eachRow((row) =>
        cells.push(...(row.values as unknown[]).slice(1)),
      );
      expect(
        cells.some((v) => typeof v === 'string' && v.includes('As recorded at: 2026-11-21T10:00:00.000Z')),
        doc.report,
      ).toBe(true);
    }
  });
});

describe('PDF layout', () => {
  it('wraps long text inside its column and lays right-to-left names out from the right', async () => {
    const long = 'A very long particulars text that has to wrap over more than one line in its column';
    const doc = toDocument({
      report: 'cashbook-report',
      params: { startDate: '2026-01-01', endDate: '2026-01-31' },
      data: [
        { date: '2026-01-02', particulars: long, cash_in: '1.00', cash_out: '0.00' },
        { date: '2026-01-03', particulars: 'محمد علی trading', cash_in: '1.00', cash_out: '0.00' },
        { date: '2026-01-04', particulars: 'אברהם כהן', cash_in: '1.00', cash_out: '0.00' },
      ],
    });
    const text = pdfText(await renderPdf(doc, meta));
    // Every word is printed, over more than one line, and nothing runs into the next column.
    expect(text).not.toContain(long);
    const wrapped = text.split('\n').filter((l) => /particulars|has to|wrap|column/.test(l));
    expect(wrapped.length).toBeGreaterThan(1);
    expect(wrapped.join(' ').replace(/\s+/g, ' ')).toContain('A very long');
    // The row starts on one line with its date, the first words and its amount; the rest wraps below.
    expect(text).toMatch(/2026-01-02\s+A very long[^\n]*\s1\.00/);
    // pdftotext reads right-to-left text back in logical order only when it was drawn from the right.
    expect(text).toContain('محمد علی');
    expect(text).toContain('אברהם כהן');
  });

  it('shapes figures character by character only where that equals real shaping', () => {
    const fonts = loadFonts();
    const pdf = new PDFDocument({ font: fonts.bytes(fonts.fonts[DEFAULT_FAMILY]!.normal) });
    const font: PdfkitFont = pdf._font;
    expect(figuresComposable(font)).toBe(true);
    // Roboto kerns "//": the check would refuse the shortcut if slashes were among the figures.
    expect(figuresComposable(font, `${FIGURES}/`)).toBe(false);
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed;
    };
    for (let i = 0; i < 2000; i++) {
      const n = String(random());
      const text =
        i % 3 === 0
          ? `-${n.slice(0, 3)},${n.slice(3, 5)}.${n.slice(5, 7)}`
          : i % 3 === 1
            ? `2026-${n.slice(0, 2)}-${n.slice(2, 4)}`
            : `(${n}): ${n.slice(1)}`;
      const real = font.layoutRun(text);
      const ours = composed(font, text);
      expect(ours.glyphs.map((g) => g.id)).toEqual(real.glyphs.map((g) => g.id));
      expect(ours.positions.map((p) => [p.xAdvance, p.xOffset, p.yOffset])).toEqual(
        real.positions.map((p) => [p.xAdvance, p.xOffset, p.yOffset]),
      );
      expect(ours.advanceWidth).toBeCloseTo(real.advanceWidth, 9);
    }
  });
});

describe('fonts per script', () => {
  it('splits mixed text into runs of one font, keeping Latin in Roboto and spaces in place', () => {
    const fonts = loadFonts();
    expect(fonts.runs('Purchase 12')).toBeUndefined();
    const runs = fonts.runs('Ledger: सुरेश Patel (Funder)')!;
    expect(runs.map((r) => [r.text, r.font ?? 'Roboto'])).toEqual([
      ['Ledger: ', 'Roboto'],
      ['सुरेश ', 'NotoDevanagari'],
      ['Patel (Funder)', 'Roboto'],
    ]);
    // A right-to-left run is marked so its words are laid out from the right.
    expect(fonts.runs('محمد علی')).toEqual([{ text: 'محمد علی', font: 'NotoArabic', rtl: true }]);
  });
});

describe('XLSX files, read back with exceljs', () => {
  it('has numeric cells with number formats, a frozen header with an autofilter, totals, and escaped text', async () => {
    const sheet = await readXlsx(await renderXlsx(ledger(10), meta));
    let header = 0;
    sheet.eachRow((row, n) => {
      if (row.getCell(1).value === 'Date' && row.getCell(2).value === 'Particulars') header = n;
    });
    expect(header).toBeGreaterThan(0);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: header });
    expect(sheet.autoFilter).toBeTruthy();
    const first = sheet.getRow(header + 2); // the second line: a debit
    expect(first.getCell(4).value).toBe(1000.1);
    expect(typeof first.getCell(4).value).toBe('number');
    expect(first.getCell(4).numFmt).toContain('#,##0.00');
    expect(first.getCell(1).value).toBeInstanceOf(Date);
    // Formula-like text is stored as text with a leading apostrophe, never as a formula.
    expect(sheet.getRow(header + 2).getCell(2).value).toBe('\'=HYPERLINK("http://x","y")');
    expect(sheet.getRow(header + 3).getCell(2).value).toBe("'@SUM(A1)");
    expect(sheet.getRow(header + 4).getCell(2).value).toBe('राम ट्रेडर्स');
    let formulas = 0;
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        if (cell.type === 6 /* Formula */) formulas++;
      }),
    );
    expect(formulas).toBe(0);
    const total = sheet.getRow(header + 11);
    expect(total.getCell(1).value).toBe('Total');
    expect(total.getCell(4).value).toBe(1234567.89);
    expect(total.getCell(5).value).toBe(-0.01);
  });
});

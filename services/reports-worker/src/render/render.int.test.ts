/// <reference path="../pdfkit.d.ts" />
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { pdfFonts, pdfInfo, pdfPages, pdfText, readWorkbook, readXlsx } from '../testing/readers.ts';
import { toDocument, verificationCode, verificationDigest } from './document.ts';
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
      entity: { name: 'सुरेश Patel', currency: 'AED' },
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
    expect(text).toMatch(/From: 1 Jan 2026\s+To: 31 Jan 2026/);
    expect(text).toContain('Generated 21 Nov 2026, 10:00:00 UTC');
    expect(text).toContain(`Page ${pages} of ${pages}`);
    // Totals, right-aligned at 2 decimals with grouping.
    expect(text).toMatch(/Total\s+12,34,567\.89\s+-0\.01\s+-99\.50/);
    expect(text).toMatch(/1,000\.10/);
    // The table header is repeated on every page.
    for (let page = 1; page <= pages; page++) {
      expect(pdfText(pdf, { first: page, last: page })).toMatch(
        /Date\s+Particulars\s+Type\s+Debit \(AED\)\s+Credit \(AED\)\s+Balance \(AED\)/,
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
      expect(doc, doc.report).toMatchObject({ asOf: '2026-11-30', knownAt: '2026-11-21T10:00:00.000Z' });
      const books = 'Books as of 30 Nov 2026, as recorded at 21 Nov 2026, 10:00:00 UTC';
      expect(pdfText(await renderPdf(doc, meta)), doc.report).toContain(books);
      const cells: unknown[] = [];
      (await readXlsx(await renderXlsx(doc, meta))).eachRow((row) =>
        cells.push(...(row.values as unknown[]).slice(1)),
      );
      expect(
        cells.some((v) => v === books),
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
    expect(text).toMatch(/2 Jan 2026\s+A very long[^\n]*\s1\.00/);
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

/** Every cell's value of a sheet, row by row. */
async function sheetCells(xlsx: Buffer) {
  const sheet = await readXlsx(xlsx);
  const cells: unknown[] = [];
  sheet.eachRow((row) => cells.push(...(row.values as unknown[]).slice(1)));
  return { sheet, cells };
}

describe('issue #18: which books a file shows, in words, and where it was read', () => {
  it('prints the as-of date and the recording moment on every page, and a verification code small at the foot; the position and digest in the metadata', async () => {
    const doc = ledger(200);
    doc.asOf = '2026-11-24';
    doc.knownAt = '2026-11-24T10:15:02.000Z';
    const digest = verificationDigest(doc, '960');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    const code = `Verification code ${verificationCode(digest)}`;
    expect(code).toMatch(/^Verification code [0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/);
    const pdf = await renderPdf(doc, { ...meta, position: '960' });
    const pages = pdfPages(pdf);
    expect(pages).toBeGreaterThan(2);
    for (let page = 1; page <= pages; page++) {
      const text = pdfText(pdf, { first: page, last: page });
      expect(text).toContain('Books as of 24 Nov 2026, as recorded at 24 Nov 2026, 10:15:02 UTC');
      expect(text).toContain(code);
      // Issue #25: no word a clerk does not know.
      expect(text).not.toMatch(/log position|read at position/i);
    }
    const info = pdfInfo(pdf);
    expect(info.Keywords).toBe(`bahi-read-position=960 bahi-verification=${digest}`);
    expect(info.Subject).toContain(code);

    const xlsx = await renderXlsx(doc, { ...meta, position: '960' });
    const { cells } = await sheetCells(xlsx);
    expect(cells).toContain('Books as of 24 Nov 2026, as recorded at 24 Nov 2026, 10:15:02 UTC');
    expect(cells).toContain(code);
    expect(cells.some((v) => typeof v === 'string' && /log position|read at position/i.test(v))).toBe(false);
    const book = await readWorkbook(xlsx);
    expect(book.keywords).toBe(`bahi-read-position=960 bahi-verification=${digest}`);
    expect(book.subject).toContain(code);
  });

  it("says the account's currency with every amount of a ledger (issue #25)", async () => {
    const doc = ledger(3);
    const text = pdfText(await renderPdf(doc, meta));
    for (const label of [
      'Opening Balance (AED)',
      'Closing Balance (AED)',
      'Debit (AED)',
      'Credit (AED)',
      'Balance (AED)',
    ])
      expect(text).toContain(label);
    const { cells } = await sheetCells(await renderXlsx(doc, meta));
    for (const label of ['Closing Balance (AED)', 'Debit (AED)', 'Credit (AED)', 'Balance (AED)'])
      expect(cells).toContain(label);
  });

  it('gives the same report of the same books the same code, and any other figure or position another', () => {
    const doc = ledger(3);
    const digest = verificationDigest(doc, '960');
    expect(verificationDigest(ledger(3), '960')).toBe(digest);
    expect(verificationDigest(doc, '961')).not.toBe(digest);
    const changed = ledger(3);
    changed.rows[1] = { ...changed.rows[1], debit: '1.01' };
    expect(verificationDigest(changed, '960')).not.toBe(digest);
  });

  it('covers the chain head at the position in the code, prints it at the foot and puts it in the keywords (issue #30)', async () => {
    const doc = ledger(3);
    const chainHead = 'ab12'.repeat(16);
    const digest = verificationDigest(doc, '960', chainHead);
    expect(digest).not.toBe(verificationDigest(doc, '960'));
    expect(digest).not.toBe(verificationDigest(doc, '960', 'ab13'.repeat(16)));
    const pdf = await renderPdf(doc, { ...meta, position: '960', chainHead });
    expect(pdfText(pdf)).toContain(
      `Verification code ${verificationCode(digest)} · Chain AB12-AB12-AB12 at 960`,
    );
    expect(pdfInfo(pdf).Keywords).toBe(
      `bahi-read-position=960 bahi-verification=${digest} bahi-chain=${chainHead}`,
    );
    const book = await readWorkbook(await renderXlsx(doc, { ...meta, position: '960', chainHead }));
    expect(book.keywords).toBe(`bahi-read-position=960 bahi-verification=${digest} bahi-chain=${chainHead}`);
  });

  it('without as-of or as-known-at says the books as recorded at the moment the file was made', async () => {
    const doc = toDocument({ report: 'stock', params: {}, data: {} });
    expect(pdfText(await renderPdf(doc, meta))).toContain('Books as recorded at 21 Nov 2026, 10:00:00 UTC');
    const { cells } = await sheetCells(await renderXlsx(doc, meta));
    expect(cells).toContain('Books as recorded at 21 Nov 2026, 10:00:00 UTC');
    expect(cells).toContain('Generated 21 Nov 2026, 10:00:00 UTC');
  });
});

describe('issue #18: payments and salaries by currency', () => {
  const payments = (params: Record<string, string>) =>
    toDocument({
      report: 'payments',
      params,
      names: { d: 'Dubai' },
      data: {
        data: [
          {
            payment_date: '2026-11-02',
            type: 'Payment To',
            relatedEntityName: 'Asha Traders',
            handlerEntityName: 'Kiran',
            payment_mode: 'Currency',
            currency: 'AED',
            amount: '100.00',
          },
          {
            payment_date: '2026-11-03',
            type: 'Payment From',
            relatedEntityName: 'Usha',
            handlerEntityName: 'Kiran',
            payment_mode: 'Currency',
            currency: 'AED',
            amount: '40.50',
          },
          {
            payment_date: '2026-11-04',
            type: 'Payment From',
            relatedEntityName: 'Imran',
            handlerEntityName: 'Main',
            payment_mode: 'INR',
            currency: 'INR',
            amount: '1000.00',
          },
          {
            payment_date: '2026-11-05',
            type: 'Payment To',
            relatedEntityName: 'Ali',
            handlerEntityName: 'Sajid',
            payment_mode: 'Currency',
            currency: 'PKR',
            amount: '5000.00',
          },
          {
            payment_date: '2026-11-06',
            type: 'Payment To',
            relatedEntityName: 'Asha Traders',
            handlerEntityName: 'Kiran',
            payment_mode: 'Currency',
            currency: 'AED',
            amount: '0.25',
          },
        ],
      },
    });

  it("shows each row's currency, and totals paid to funders and received from agents apart, per currency (PDF and XLSX)", async () => {
    const doc = payments({ startDate: '2026-11-01', endDate: '2026-11-30' });
    expect(doc.totals).toEqual([
      { label: 'Paid to funders (AED)', values: { amount: '100.25' } },
      { label: 'Received from agents (AED)', values: { amount: '40.50' } },
      { label: 'Received from agents (INR)', values: { amount: '1000.00' } },
      { label: 'Paid to funders (PKR)', values: { amount: '5000.00' } },
    ]);
    const text = pdfText(await renderPdf(doc, meta));
    expect(text).toMatch(/2 Nov 2026\s+Payment To\s+Asha Traders\s+Kiran\s+AED\s+100\.00/);
    expect(text).toMatch(/Paid to funders \(AED\)\s+100\.25/);
    expect(text).toMatch(/Received from agents \(AED\)\s+40\.50/);
    expect(text).toMatch(/Received from agents \(INR\)\s+1,000\.00/);
    expect(text).toMatch(/Paid to funders \(PKR\)\s+5,000\.00/);
    expect(text).not.toMatch(/^\s*Total\b/m);
    const { sheet } = await sheetCells(await renderXlsx(doc, meta));
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toContainEqual(['Date', 'Type', 'Entity', 'Handler', 'Currency', 'Amount']);
    expect(rows).toContainEqual([
      new Date('2026-11-05T00:00:00Z'),
      'Payment To',
      'Ali',
      'Sajid',
      'PKR',
      5000,
    ]);
    expect(rows).toContainEqual([
      'Paid to funders (AED)',
      undefined,
      undefined,
      undefined,
      undefined,
      100.25,
    ]);
    expect(rows).toContainEqual([
      'Received from agents (INR)',
      undefined,
      undefined,
      undefined,
      undefined,
      1000,
    ]);
  });

  it('totals salaries per currency', async () => {
    const doc = toDocument({
      report: 'salary-report',
      params: {},
      data: {
        data: [
          {
            payment_date: '2026-11-01',
            collectorName: 'Kiran',
            month: 11,
            year: 2026,
            payment_mode: 'Currency',
            currency: 'AED',
            amount: '1500.00',
          },
          {
            payment_date: '2026-11-01',
            collectorName: 'Sajid',
            month: 11,
            year: 2026,
            payment_mode: 'Currency',
            currency: 'PKR',
            amount: '90000.00',
          },
          {
            payment_date: '2026-11-02',
            collectorName: 'Ravi',
            month: 11,
            year: 2026,
            payment_mode: 'INR',
            currency: 'INR',
            amount: '25000.00',
          },
          {
            payment_date: '2026-11-03',
            collectorName: 'Kiran',
            month: 10,
            year: 2026,
            payment_mode: 'Currency',
            currency: 'AED',
            amount: '10.00',
          },
        ],
      },
    });
    expect(doc.totals).toEqual([
      { label: 'Total (AED)', values: { amount: '1510.00' } },
      { label: 'Total (PKR)', values: { amount: '90000.00' } },
      { label: 'Total (INR)', values: { amount: '25000.00' } },
    ]);
    const text = pdfText(await renderPdf(doc, meta));
    expect(text).toMatch(/Kiran\s+11\/2026\s+AED\s+1,500\.00/);
    expect(text).toMatch(/Total \(PKR\)\s+90,000\.00/);
    expect(text).toMatch(/Total \(INR\)\s+25,000\.00/);
  });

  it('names the file with the city asked for, keeping the vowel signs of a name', () => {
    expect(ledger(1).fileName).toBe('ledger_Funder_सुरेश_Patel_2026-01-01_to_2026-01-31');
    expect(payments({ city_id: 'd', startDate: '2026-11-01', endDate: '2026-11-24' }).fileName).toBe(
      'payments_report_Dubai_2026-11-01_to_2026-11-24',
    );
    expect(payments({ startDate: '2026-11-01', endDate: '2026-11-24' }).fileName).toBe(
      'payments_report_2026-11-01_to_2026-11-24',
    );
  });
});

describe('issue #18: XLSX and PDF details', () => {
  it('sizes XLSX columns to their content and names the sheet with single spaces', async () => {
    const book = await readWorkbook(await renderXlsx(ledger(10), meta));
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('Ledger सुरेश Patel (Funder)');
    expect(sheet.name).not.toMatch(/\s{2}/);
    // 'Opening Balance' (a summary label in the first column) and '12,34,567.89' fit.
    expect(sheet.getColumn(1).width).toBeGreaterThanOrEqual('Opening Balance'.length);
    expect(sheet.getColumn(4).width).toBeGreaterThanOrEqual('1,234,567.89'.length);
    expect(sheet.getColumn(2).width).toBeGreaterThanOrEqual('=HYPERLINK("http://x","y")'.length);
  });

  it('prints stock quantities grouped at 4 places in the PDF, and dates as the app shows them', async () => {
    const doc = toDocument({
      report: 'stock',
      params: {},
      data: {
        Main: [
          { godown_id: 'g', product_id: 'p', product_name: 'Cumin', quantity: '1429.0000' },
          { godown_id: 'g', product_id: 'q', product_name: 'Pepper', quantity: '1234567.5' },
        ],
      },
    });
    const text = pdfText(await renderPdf(doc, meta));
    expect(text).toMatch(/Cumin\s+1,429\.0000/);
    expect(text).toMatch(/Pepper\s+12,34,567\.5000/);
    const sheet = await readXlsx(await renderXlsx(doc, meta));
    let quantity: ExcelJSCell | undefined;
    sheet.eachRow((row) => {
      if (row.getCell(2).value === 'Cumin') quantity = row.getCell(3);
    });
    expect(quantity?.value).toBe(1429);
    expect(quantity?.numFmt).toBe('#,##0.0000');
    // Dates: a date cell shown as '24 Nov 2026'.
    const ledgerSheet = await readXlsx(await renderXlsx(ledger(3), meta));
    let dateFormat: string | undefined;
    ledgerSheet.eachRow((row) => {
      if (row.getCell(1).value instanceof Date) dateFormat = row.getCell(1).numFmt;
    });
    expect(dateFormat).toBe('d mmm yyyy');
    expect(pdfText(await renderPdf(ledger(3), meta))).toMatch(/^\s*1 Jan 2026\s+Purchase/m);
  });

  it("shows a cashbook's zero amounts as '-' in both files, and totals as figures", async () => {
    const doc = toDocument({
      report: 'cashbook-report',
      params: {
        city_id: 'm',
        entity_type: 'Collector',
        entity_id: 'c',
        startDate: '2026-11-01',
        endDate: '2026-11-24',
      },
      names: { m: 'Mumbai', c: 'Kiran' },
      data: [
        { date: '2026-11-03', particulars: 'Expense: Rent', cash_in: '0.00', cash_out: '1.00' },
        { date: '2026-11-04', particulars: 'Payment from Usha (INR)', cash_in: '5.00', cash_out: '0.00' },
      ],
    });
    expect(doc.fileName).toBe('cashbook_report_Mumbai_2026-11-01_to_2026-11-24');
    const text = pdfText(await renderPdf(doc, meta));
    expect(text).toMatch(/3 Nov 2026\s+Expense: Rent\s+-\s+1\.00/);
    const sheet = await readXlsx(await renderXlsx(doc, meta));
    let zero: ExcelJSCell | undefined;
    let total: ExcelJSCell | undefined;
    sheet.eachRow((row) => {
      if (row.getCell(2).value === 'Expense: Rent') zero = row.getCell(3);
      if (row.getCell(1).value === 'Net Total') total = row.getCell(3);
    });
    // A number (sums still work) whose format's zero section is '-': what Excel shows.
    expect(zero?.value).toBe(0);
    expect(zero?.numFmt?.split(';')[2]).toBe('"-"');
    expect(total?.numFmt?.split(';')).toHaveLength(2);
  });
});

type ExcelJSCell = { value: unknown; numFmt?: string };

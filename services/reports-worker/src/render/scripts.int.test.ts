/// <reference path="../pdfkit.d.ts" />
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join, resolve } from 'node:path';
import { inProcessReports, type RenderJob } from '@bahi/report-jobs';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { memoryEffects } from '../effects.ts';
import { processReportJob } from '../process.ts';
import { pdfDarkPixels, pdfFonts, pdfText } from '../testing/readers.ts';
import { outboxTransport } from '../whatsapp.ts';
import { toDocument } from './document.ts';
import { DEFAULT_FAMILY, loadFonts } from './fonts.ts';
import { renderPdf } from './pdf.ts';
import { fixPlaceholderWidth, type PdfkitFont } from './shaping.ts';

const meta = { businessName: 'Shree Traders', generatedAt: '2026-11-21T10:00:00.000Z', position: '7' };
const NODE_MODULES = resolve(import.meta.dirname, '../../../../node_modules');

/**
 * A name in each script, with the font that must print it (its PostScript name as pdffonts
 * lists it). Indic names with vowel signs drawn before their consonant (कि, রি, ਿ) and an Urdu
 * name with letters that share a body in some Naskh builds read back only if the renderer
 * attaches their text.
 */
const NAMES: Array<[script: string, name: string, font: RegExp]> = [
  ['Chinese (simplified)', '王小明 商行', /NotoSansHans/],
  ['Chinese (traditional)', '陳大文 貿易行', /NotoSansHans/],
  ['Japanese', '山田 たろう カフェ', /NotoSansHans/],
  ['Korean', '김민준 상사', /NotoSansKR/],
  ['Arabic', 'محمد علی', /NotoNaskhArabic/],
  ['Urdu', 'عمران ٹریڈرز', /NotoNaskhArabic/],
  ['Devanagari', 'किशन ट्रेडर्स', /NotoSansDevanagari/],
  ['Gujarati', 'ગિરીશ પટેલ', /NotoSansGujarati/],
  ['Gurmukhi', 'ਗੁਰੂ ਨਾਨਕ ਹਰਪ੍ਰੀਤ ਸਿੰਘ', /NotoSansGurmukhi/],
  ['Bengali', 'রহিম ট্রেডার্স', /NotoSansBengali/],
  ['Tamil', 'முருகன் ஸ்டோர்ஸ்', /NotoSansTamil/],
  ['Malayalam', 'മലയാളം സ്റ്റോർ', /NotoSansMalayalam/],
  ['Hebrew', 'אברהם כהן', /NotoSansHebrew/],
  ['Thai', 'สมชาย การค้า', /NotoSansThai/],
  ['emoji', 'Ravi 🙏 Traders', /NotoEmoji/],
];

function cashbook(particulars: string[]) {
  return toDocument({
    report: 'cashbook-report',
    params: { startDate: '2026-01-01', endDate: '2026-01-31' },
    data: particulars.map((p, i) => ({
      date: '2026-01-02',
      particulars: p,
      cash_in: `${i + 1}.00`,
      cash_out: '0.00',
    })),
  });
}

function ledger(name: string, particulars = 'Purchase') {
  return toDocument({
    report: 'ledger',
    params: { type: 'Agent', id: 'a1', startDate: '2026-01-01', endDate: '2026-01-31' },
    data: {
      entity: { name },
      openingBalance: '0.00',
      totalDebit: '10.00',
      totalCredit: '0.00',
      closingBalance: '10.00',
      transactions: [
        { date: '2026-01-02', particulars, type: 'Debit', debit: '10.00', credit: '0.00', balance: '10.00' },
      ],
    },
  });
}

describe('names in every script print, from fonts that ship with the project', () => {
  it('reads each name back from the PDF as written, each printed in its Noto font from npm', async () => {
    const missing: string[][] = [];
    const pdf = await renderPdf(cashbook(NAMES.map(([, name]) => name)), meta, {
      onMissing: (chars) => missing.push(chars),
    });
    const text = pdfText(pdf);
    for (const [script, name] of NAMES) expect(text, script).toContain(name);
    const fonts = pdfFonts(pdf);
    for (const [script, , font] of NAMES) expect(fonts, script).toMatch(font);
    // Every font embedded (as a subset), none of the standard 14.
    for (const line of fonts.split('\n').slice(2).filter(Boolean))
      expect(line).toMatch(/\byes\s+yes\s+yes\b/);
    expect(missing).toEqual([]);
    // Subsets: 15 scripts' fonts, two of them CJK fonts of 4-8 MB, in a file of some 100 kB.
    expect(pdf.length).toBeLessThan(250_000);
  });

  it('titles the ledger of an agent named in Chinese with the name, not a blank', async () => {
    const pdf = await renderPdf(ledger('王小明 商行'), meta);
    expect(pdfText(pdf)).toContain('Ledger: 王小明 商行 (Agent)');
    // The title is bold: the Chinese font's bold face.
    expect(pdfFonts(pdf)).toMatch(/NotoSansHans-Bold/);
  });

  it('reads every font file from the npm packages in node_modules, none from the machine', () => {
    const opened: string[] = [];
    const readFileSync = fs.readFileSync;
    const openSync = fs.openSync;
    // The real fs, watched: fonts.ts's own `import { readFileSync } from 'node:fs'` sees this.
    fs.readFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      opened.push(String(path));
      return (readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof fs.readFileSync;
    fs.openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
      opened.push(String(path));
      return (openSync as (...a: unknown[]) => number)(path, ...rest);
    }) as typeof fs.openSync;
    syncBuiltinESMExports();
    try {
      const fonts = loadFonts();
      for (const [, name] of NAMES) fonts.runs(name);
      for (const files of Object.values(fonts.fonts))
        for (const file of Object.values(files)) fonts.bytes(file);
    } finally {
      fs.readFileSync = readFileSync;
      fs.openSync = openSync;
      syncBuiltinESMExports();
    }
    const fontFiles = opened.filter((p) => /\.(ttf|otf|ttc|woff2?)$/i.test(p));
    expect(fontFiles.length).toBeGreaterThanOrEqual(Object.keys(loadFonts().fonts).length);
    for (const file of fontFiles) expect(file.startsWith(`${NODE_MODULES}/`), file).toBe(true);
    expect(opened.filter((p) => p.startsWith('/usr/share/fonts'))).toEqual([]);
  });
});

describe('a character no font has', () => {
  const job = (name: string, format: 'pdf' | 'xlsx'): RenderJob => ({
    kind: 'render',
    format,
    requester: { id: '00000000-0000-4000-8000-000000000002', name: 'Imran', role: 'Admin' },
    position: '9',
    readAt: '2026-11-21T10:00:00.000Z',
    source: {
      report: 'ledger',
      params: { type: 'Agent', id: 'a1', startDate: '2026-01-01', endDate: '2026-01-31' },
      data: {
        entity: { name },
        openingBalance: '0.00',
        totalDebit: '1.00',
        totalCredit: '0.00',
        closingBalance: '1.00',
        transactions: Array.from({ length: 30 }, () => ({
          date: '2026-01-02',
          particulars: `${name} \u{10FFFD}`,
          type: 'Debit',
          debit: '1.00',
          credit: '0.00',
          balance: '1.00',
        })),
      },
    },
  });

  async function run(name: string, format: 'pdf' | 'xlsx') {
    const reports = inProcessReports();
    const warnings: Array<{ message: string; fields: Record<string, unknown> }> = [];
    await processReportJob(
      { id: `job-${format}`, data: job(name, format), attemptsMade: 0, attempts: 1 },
      {
        files: reports.files,
        effects: memoryEffects(),
        transport: outboxTransport,
        businessName: 'Shree',
        warn: (message, fields) => warnings.push({ message, fields }),
      },
    );
    const file = await reports.files.get(`job-${format}`);
    await reports.close();
    return { body: file!.body, fileName: file!.fileName, warnings };
  }

  it('prints as a placeholder box that reads back as the character, and the job warns once, naming the report', async () => {
    const { body, fileName, warnings } = await run('Ravi 𐤀𐤁 Traders', 'pdf');
    // Its text is there (title and rows): the boxes carry the characters they stand for.
    const text = pdfText(body);
    expect(text).toContain('Ledger: Ravi 𐤀𐤁 Traders (Agent)');
    expect(text).toContain('Ravi 𐤀𐤁 Traders \u{10FFFD}');
    // One warning for the whole job, though the characters are in the title and 30 rows.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/no font/);
    expect(warnings[0]!.fields).toEqual({
      job: 'job-pdf',
      report: 'ledger',
      file: fileName,
      characters: ['U+10900 𐤀', 'U+10901 𐤁', 'U+10FFFD \u{10FFFD}'],
    });
    expect(fileName).toMatch(/^ledger_Agent_.*\.pdf$/);
  });

  it('draws something where the character is: more ink than the same name without it', async () => {
    const boxes = await renderPdf(ledger('Ravi 𐤀𐤁𐤂𐤃 Traders'), meta);
    const without = await renderPdf(ledger('Ravi  Traders'), meta);
    expect(pdfDarkPixels(boxes)).toBeGreaterThan(pdfDarkPixels(without) + 20);
  });

  it('does not warn for a file that has no fonts (XLSX)', async () => {
    const { warnings } = await run('Ravi 𐤀𐤁 Traders', 'xlsx');
    expect(warnings).toEqual([]);
  });
});

describe('runs of one font', () => {
  const fonts = loadFonts();
  const runs = (text: string) => fonts.runs(text)?.map((r) => [r.text, r.font ?? DEFAULT_FAMILY]);

  it('puts Chinese, Japanese and Korean in their fonts, and Latin punctuation back in Roboto', () => {
    expect(runs('Ledger: 王小明 商行 (Agent)')).toEqual([
      ['Ledger: ', 'Roboto'],
      ['王小明 商行 ', 'NotoCJK'],
      ['(Agent)', 'Roboto'],
    ]);
    expect(runs('山田 たろう、カフェ')).toEqual([['山田 たろう、カフェ', 'NotoCJK']]);
    expect(runs('김민준 金')).toEqual([
      ['김민준 ', 'NotoKorean'],
      ['金', 'NotoCJK'],
    ]);
  });

  it('keeps punctuation Roboto lacks, and digits in right-to-left text, in the run they are in', () => {
    expect(runs('राम।')).toEqual([['राम।', 'NotoDevanagari']]);
    expect(fonts.runs('محمد 12')).toEqual([{ text: 'محمد 12', font: 'NotoArabic', rtl: true }]);
  });

  it('keeps an emoji sequence whole in the emoji font, and the spaces after it in Roboto', () => {
    expect(runs('Ravi 👍🏽 1️⃣ 🇮🇳 👨‍👩‍👧 ok')).toEqual([
      ['Ravi ', 'Roboto'],
      ['👍🏽', 'NotoEmoji'],
      [' ', 'Roboto'],
      ['1️⃣', 'NotoEmoji'],
      [' ', 'Roboto'],
      ['🇮🇳', 'NotoEmoji'],
      [' ', 'Roboto'],
      ['👨‍👩‍👧', 'NotoEmoji'],
      [' ok', 'Roboto'],
    ]);
    // A symbol Roboto has stays in Roboto; asked for as an emoji (U+FE0F) it is one.
    expect(fonts.runs('© 2026')).toBeUndefined();
    expect(runs('©\uFE0F')).toEqual([['©\uFE0F', 'NotoEmoji']]);
  });

  it('marks characters no font has, and drops invisible ones a font lacks instead of drawing a box', () => {
    expect(fonts.runs('x 𐤀𐤁 y')).toEqual([
      { text: 'x ' },
      { text: '𐤀𐤁 ', missing: true, actual: true },
      { text: 'y' },
    ]);
    // Roboto has no zero-width joiner: the text is drawn without it.
    expect(fonts.runs('Ravi\u200DKumar')).toEqual([{ text: 'RaviKumar' }]);
    expect(fonts.runs('José Müller')).toBeUndefined();
  });
});

describe("pdfkit's placeholder glyph width", () => {
  it('is written per 1000 em like every other glyph, so boxes do not run into the next word', () => {
    const fonts = loadFonts();
    const doc = new PDFDocument({ font: fonts.bytes(join(fonts.fonts[DEFAULT_FAMILY]!.normal)) });
    const font: PdfkitFont = doc._font;
    // Where pdfkit places the glyph after a placeholder (1/1000 em), and the width it writes.
    const placed = font.layoutRun('\u{10900}').positions[0]!.xAdvance;
    expect(font.widths![0]).not.toBeCloseTo(placed, 3);
    fixPlaceholderWidth(font);
    expect(font.widths![0]).toBeCloseTo(placed, 3);
  });
});

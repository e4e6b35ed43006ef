/// <reference path="../pdfkit.d.ts" />
import type PDFDocument from 'pdfkit';
import { formatDecimal, isDecimal } from './decimal.ts';
import {
  booksLine,
  type Column,
  dayInWords,
  momentInWords,
  type ReportDocument,
  type Row,
  type TotalRow,
  verificationDigest,
  verificationKeywords,
  verificationLine,
} from './document.ts';
import { DEFAULT_FAMILY, type FontSet, type FontStyle, loadFonts, type Run } from './fonts.ts';
import { fixPlaceholderWidth, shapeFiguresByCharacter, skipNullAnchors } from './shaping.ts';

export interface RenderMeta {
  businessName: string;
  /** ISO moment the report was read. */
  generatedAt: string;
  /** The event-store position the report was read at. */
  position: string;
  /** The sealed chain head at that position (issue #30), when the log is sealed. */
  chainHead?: string | undefined;
}

export interface RenderOptions {
  /**
   * Called once, after drawing, with the characters (distinct, in order of appearance) that no
   * font has and that were printed as a placeholder box.
   */
  onMissing?(characters: string[]): void;
}

// pdfkit (with fontkit) takes half a second to load: loaded by the first PDF, not at start-up.
const loadPdfkit = async () => (await import('pdfkit')).default;

let fontSet: FontSet | undefined;
const fontsOnce = () => {
  fontSet ??= loadFonts();
  return fontSet;
};

const PAGE = { portrait: [595.28, 841.89], landscape: [841.89, 595.28] } as const;
const MARGIN = { left: 30, right: 30, top: 42, bottom: 36 };
const BODY_SIZE = 8;
const PAD = { x: 4, y: 2 };
const COLORS = {
  text: '#000000',
  meta: '#444444',
  muted: '#555555',
  faint: '#8a8a8a',
  headerFill: '#e8eef4',
  totalFill: '#f4f4f4',
  rule: '#999999',
  negative: '#b00020',
  positive: '#1b7f3a',
};

/**
 * A cell's text: amounts at 2 decimals and quantities at 4, grouped the Indian way; '-' for a
 * zero amount where the screen shows one; dates as the app shows them ('24 Nov 2026').
 */
export function cellText(column: Column, value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (column.kind === 'money' && isDecimal(value)) {
    const shown = formatDecimal(value, 2);
    return column.dashZero && /^-?0\.00$/.test(shown) ? '-' : shown;
  }
  if (column.kind === 'quantity' && isDecimal(value)) return formatDecimal(value, 4);
  if (column.kind === 'date') return dayInWords(value);
  return value;
}

interface TextStyle {
  size: number;
  style: FontStyle;
  color: string;
}
/** A word (with the spaces after it) in one font, measured. */
interface Piece {
  text: string;
  /** The font family (its style and size are the line's). */
  family: string;
  width: number;
  /** Width of the trailing spaces (not counted at the end of a line). */
  trail: number;
  rtl: boolean;
  /** Drawn with its text attached (placeholder boxes, conjuncts, Arabic). */
  actual: boolean;
}
type Line = Piece[];

const lineWidth = (line: Line) =>
  line.reduce((w, p, i) => w + p.width + (i < line.length - 1 ? p.trail : 0), 0);

/**
 * Text laid out on a pdfkit document: runs of one script each in their own font, wrapped at
 * word boundaries to a width, drawn on the Roboto baseline so a line in any script is as tall
 * as the others. pdfmake's table layout did the same for every cell and cost twice the time on
 * big tables; here a cell that fits on one line is measured once and drawn once.
 */
class Typesetter {
  private current = '';
  private color = '';
  private registered = new Set<string>();
  /** Per size: the line height and the distance from the line's top to its baseline. */
  private metrics = new Map<number, { height: number; ascent: number }>();
  /** Characters no font has, as met. */
  readonly missing = new Set<string>();

  constructor(
    readonly doc: PDFDocument,
    private readonly fonts: FontSet,
  ) {}

  private use(family: string, style: FontStyle, size: number): void {
    const name = `${family}/${style}`;
    if (!this.registered.has(name)) {
      const files = this.fonts.fonts[family] ?? this.fonts.fonts[DEFAULT_FAMILY]!;
      this.doc.registerFont(name, this.fonts.bytes(files[style]));
      this.doc.font(name, size);
      skipNullAnchors(this.doc._font);
      fixPlaceholderWidth(this.doc._font);
      shapeFiguresByCharacter(this.doc._font, files[style]);
      this.registered.add(name);
    } else if (`${name}@${size}` !== this.current) this.doc.font(name, size);
    this.current = `${name}@${size}`;
  }

  /** After a new page or a shape fill, the next text sets its colour again. */
  forgetColor() {
    this.color = '';
  }

  fill(color: string) {
    if (color !== this.color) {
      this.doc.fillColor(color);
      this.color = color;
    }
  }

  /** Line height and baseline offset of Roboto at a size: every line uses them. */
  line(size: number) {
    let m = this.metrics.get(size);
    if (!m) {
      this.use(DEFAULT_FAMILY, 'normal', size);
      const height = this.doc.currentLineHeight(true);
      m = { height, ascent: (this.doc._font.ascender / 1000) * size };
      this.metrics.set(size, m);
    }
    return m;
  }

  /** The text wrapped to `width`: one line per entry. */
  wrap(text: string, s: TextStyle, width: number): Line[] {
    const lines: Line[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      const runs: Run[] = this.fonts.runs(paragraph) ?? [{ text: paragraph }];
      for (const run of runs) {
        if (run.missing) for (const ch of run.text) if (!/\s/.test(ch)) this.missing.add(ch);
      }
      // One run in a left-to-right script: measured and drawn whole when it fits.
      if (runs.length === 1 && !runs[0]!.rtl) {
        const run = runs[0]!;
        const family = run.font ?? DEFAULT_FAMILY;
        this.use(family, s.style, s.size);
        const w = this.doc.widthOfString(run.text);
        if (w <= width) {
          lines.push([{ text: run.text, family, width: w, trail: 0, rtl: false, actual: !!run.actual }]);
          continue;
        }
      }
      lines.push(...this.wrapWords(runs, s, width));
    }
    return lines;
  }

  private wrapWords(runs: Run[], s: TextStyle, width: number): Line[] {
    const lines: Line[] = [];
    let line: Line = [];
    let used = 0;
    const push = (piece: Piece) => {
      if (line.length > 0 && used + piece.width > width) {
        lines.push(line);
        line = [];
        used = 0;
      }
      line.push(piece);
      used += piece.width + piece.trail;
    };
    for (const run of runs) {
      const family = run.font ?? DEFAULT_FAMILY;
      const rtl = !!run.rtl;
      const actual = !!run.actual;
      this.use(family, s.style, s.size);
      for (const token of run.text.match(/\S+\s*|\s+/g) ?? []) {
        const word = token.trimEnd();
        const space = token.slice(word.length);
        const trail = space ? this.doc.widthOfString(space) : 0;
        const w = word ? this.doc.widthOfString(word) : 0;
        if (w <= width) {
          push({ text: token, family, width: w, trail, rtl, actual });
          continue;
        }
        // A word wider than the column is broken where it has to be.
        let part = '';
        for (const ch of word) {
          if (part && this.doc.widthOfString(part + ch) > width) {
            push({ text: part, family, width: this.doc.widthOfString(part), trail: 0, rtl, actual });
            part = '';
          }
          part += ch;
        }
        if (part)
          push({ text: part + space, family, width: this.doc.widthOfString(part), trail, rtl, actual });
      }
    }
    if (line.length > 0) lines.push(line);
    return lines.length > 0 ? lines : [[]];
  }

  /** Lines drawn from `top`, left or right aligned in [x, x + width]; returns the height used. */
  draw(lines: Line[], s: TextStyle, x: number, top: number, width: number, align: 'left' | 'right' = 'left') {
    const { height, ascent } = this.line(s.size);
    this.fill(s.color);
    let y = top + ascent;
    for (const line of lines) {
      let at = align === 'right' ? x + width - lineWidth(line) : x;
      for (const { piece, advance } of visualOrder(line)) {
        this.use(piece.family, s.style, s.size);
        // Spaces are advances, not drawn: a right-to-left word would put its own on the left.
        const text = piece.trail ? piece.text.trimEnd() : piece.text;
        const draw = () => this.doc.text(text, at, y, { lineBreak: false, baseline: 'alphabetic' });
        if (piece.actual) withActualText(this.doc, text, draw);
        else draw();
        at += advance;
      }
      y += height;
    }
    return lines.length * height;
  }
}

/**
 * Text drawn with its characters attached as the PDF's replacement text (ActualText), so that
 * placeholder boxes, conjuncts and Arabic words read, copy and search as their characters.
 * The marked content goes inside the text object (BT .. ET): poppler places replacement text
 * around a whole text object at the wrong height.
 */
function withActualText(doc: PDFDocument, text: string, draw: () => void) {
  const utf16 = Buffer.from(`\uFEFF${text}`, 'utf16le').swap16().toString('hex');
  const add = doc.addContent;
  doc.addContent = (data: string) => {
    if (data === 'ET') add.call(doc, 'EMC');
    add.call(doc, data);
    if (data === 'BT') add.call(doc, `/Span <</ActualText <${utf16}>>> BDC`);
    return doc;
  };
  try {
    draw();
  } finally {
    doc.addContent = add;
  }
}

/**
 * A line in drawing order with each word's advance: consecutive right-to-left words are read
 * from the right, so they are drawn in reverse, each followed by the space that came before it.
 */
function visualOrder(line: Line): Array<{ piece: Piece; advance: number }> {
  const out: Array<{ piece: Piece; advance: number }> = [];
  let i = 0;
  while (i < line.length) {
    const piece = line[i]!;
    if (!piece.rtl) {
      out.push({ piece, advance: piece.width + piece.trail });
      i++;
      continue;
    }
    let j = i;
    while (j < line.length && line[j]!.rtl) j++;
    for (let k = j - 1; k >= i; k--) {
      const p = line[k]!;
      const gap = k > i ? line[k - 1]!.trail : line[j - 1]!.trail;
      out.push({ piece: p, advance: p.width + gap });
    }
    i = j;
  }
  return out;
}

interface Cell {
  lines: Line[];
  x: number;
  width: number;
  align: 'left' | 'right';
  style: TextStyle;
}

/** Each page's running head (after the first) and foot: the books line, the verification code, the page number. */
function drawHeadsAndFeet(
  pdf: InstanceType<typeof PDFDocument>,
  t: Typesetter,
  page: {
    doc: ReportDocument;
    meta: RenderMeta;
    usable: number;
    pageHeight: number;
    books: string;
    verification: string;
  },
) {
  const { doc, meta, usable, pageHeight, books, verification } = page;
  const { count } = pdf.bufferedPageRange();
  const head: TextStyle = { size: 9, style: 'normal', color: COLORS.text };
  const foot: TextStyle = { size: 7, style: 'normal', color: COLORS.muted };
  const small: TextStyle = { size: 6, style: 'normal', color: COLORS.faint };
  const half = usable / 2 - 6;
  for (let page = 0; page < count; page++) {
    pdf.switchToPage(page);
    t.forgetColor();
    if (page > 0) {
      t.draw(
        t.wrap(meta.businessName, { ...head, style: 'bold' }, half).slice(0, 1),
        { ...head, style: 'bold' },
        MARGIN.left,
        18,
        half,
      );
      t.draw(t.wrap(doc.title, head, half).slice(0, 1), head, MARGIN.left + usable - half, 18, half, 'right');
    }
    const footY = pageHeight - MARGIN.bottom + 10;
    const used = t.draw(t.wrap(books, foot, usable - 80).slice(0, 1), foot, MARGIN.left, footY, usable - 80);
    // Small and grey: for an auditor to quote, not for staff to read.
    t.draw(t.wrap(verification, small, usable - 80), small, MARGIN.left, footY + used, usable - 80);
    t.draw(
      t.wrap(`Page ${page + 1} of ${count}`, foot, 80),
      foot,
      MARGIN.left + usable - 80,
      footY,
      80,
      'right',
    );
  }
}

/** The report's summary figures on one line or more (label muted, value bold); answers the y below them. */
function drawSummary(
  t: Typesetter,
  summary: ReportDocument['summary'],
  at: { y: number; usable: number; body: TextStyle; bold: TextStyle },
): number {
  const { usable, body, bold } = at;
  let y = at.y;
  const label: TextStyle = { ...body, color: COLORS.muted };
  const { height } = t.line(BODY_SIZE);
  let x = MARGIN.left;
  for (const s of summary) {
    const value = /^-?\d+\.\d+$/.test(s.value) ? formatDecimal(s.value, 2) : s.value;
    const l = t.wrap(`${s.label}: `, label, usable);
    const v = t.wrap(value, bold, usable);
    const w = lineWidth(l[0] ?? []) + 2 + lineWidth(v[0] ?? []);
    if (x > MARGIN.left && x + w > MARGIN.left + usable) {
      x = MARGIN.left;
      y += height;
    }
    t.draw(l, label, x, y, usable);
    t.draw(v, bold, x + lineWidth(l[0] ?? []) + 2, y, usable);
    x += w + 18;
  }
  y += height;
  return y;
}

/** A buffered PDF document with the report's Info (title, books line, verification), and its bytes once ended. */
function openPdf(
  PDF: typeof PDFDocument,
  doc: ReportDocument,
  meta: RenderMeta,
  fonts: ReturnType<typeof fontsOnce>,
  at: { size: [number, number]; digest: string; chain: { hash: string; position: string } | undefined },
) {
  const { digest, chain } = at;
  const pdf = new PDF({
    size: at.size,
    margins: MARGIN,
    bufferPages: true,
    font: fonts.bytes(fonts.fonts[DEFAULT_FAMILY]!.normal),
    // The read position and the whole digest go in the Info dictionary, where a program finds
    // them (pdfinfo); the page shows the verification code.
    info: {
      Title: doc.title,
      Author: meta.businessName,
      Creator: 'Bahi',
      Subject: `${booksLine(doc, meta.generatedAt)}. ${verificationLine(digest, chain)}`,
      Keywords: verificationKeywords(digest, meta.position, meta.chainHead),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  return { pdf, done };
}

/** A total row's cells: its label across the columns before its first figure, the figures bold (tinted by tone). */
function totalCells(
  columns: Column[],
  total: TotalRow,
  cell: (i: number, text: string, style: TextStyle, span?: number) => Cell,
  bold: TextStyle,
): Cell[] {
  // The label spans the columns before the first total figure, so it does not wrap.
  const firstValue = columns.findIndex((c, i) => i > 0 && total.values[c.key] != null);
  const span = Math.max(1, firstValue === -1 ? columns.length : firstValue);
  const cells = [cell(0, total.label, bold, span)];
  columns.forEach((c, i) => {
    if (i < span) return;
    const value = total.values[c.key];
    const color =
      total.tone && value ? (total.tone === 'negative' ? COLORS.negative : COLORS.positive) : COLORS.text;
    cells.push(cell(i, cellText({ ...c, dashZero: false }, value), { ...bold, color }));
  });
  return cells;
}

/**
 * The report as a PDF: business name, title, filters, the books line (as of, as recorded at)
 * and generated-at on the first page; the business name, title and page numbers on every page,
 * and at every page's foot the books line and, small and grey, the verification code; the header
 * repeated on every page; totals in bold; amounts right-aligned at 2 decimals. Drawn with
 * pdfkit (pdfmake's own engine) at fixed positions: docs/decisions.md says why not pdfmake.
 */
export async function renderPdf(
  doc: ReportDocument,
  meta: RenderMeta,
  options: RenderOptions = {},
): Promise<Buffer> {
  const fonts = fontsOnce();
  const digest = verificationDigest(doc, meta.position, meta.chainHead);
  const chain = meta.chainHead ? { hash: meta.chainHead, position: meta.position } : undefined;
  const tableWidth = doc.columns.reduce((w, c) => w + c.width, 0);
  const orientation =
    tableWidth > PAGE.portrait[0] - MARGIN.left - MARGIN.right - 20 ? 'landscape' : 'portrait';
  const [pageWidth, pageHeight] = PAGE[orientation];
  const usable = pageWidth - MARGIN.left - MARGIN.right;
  const bottom = pageHeight - MARGIN.bottom;

  const size: [number, number] = [pageWidth, pageHeight];
  const { pdf, done } = openPdf(await loadPdfkit(), doc, meta, fonts, { size, digest, chain });
  const t = new Typesetter(pdf, fonts);

  // Columns stretched to the page width so every report looks the same; each has 4 pt padding.
  const scale = (usable - doc.columns.length * 2 * PAD.x) / tableWidth;
  const widths = doc.columns.map((c) => c.width * scale + 2 * PAD.x);
  const lefts = widths.map((_, i) => MARGIN.left + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const right = doc.columns.map((c) => c.kind === 'money' || c.kind === 'quantity');
  const body: TextStyle = { size: BODY_SIZE, style: 'normal', color: COLORS.text };
  const bold: TextStyle = { ...body, style: 'bold' };
  const rowHeight = (cells: Cell[]) =>
    Math.max(1, ...cells.map((c) => c.lines.length)) * t.line(BODY_SIZE).height + 2 * PAD.y;
  const cell = (i: number, text: string, style: TextStyle, span = 1): Cell => {
    const width = widths.slice(i, i + span).reduce((a, b) => a + b, 0);
    return {
      lines: text ? t.wrap(text, style, width - 2 * PAD.x) : [],
      x: lefts[i]! + PAD.x,
      width: width - 2 * PAD.x,
      align: right[i] && !(span > 1) ? 'right' : 'left',
      style,
    };
  };

  // Page 1: who, what, which filters, when.
  let y = MARGIN.top;
  const paragraph = (text: string, style: TextStyle, before = 0, after = 0) => {
    y += before;
    y += t.draw(t.wrap(text, style, usable), style, MARGIN.left, y, usable) + after;
  };
  paragraph(meta.businessName, { size: 14, style: 'bold', color: COLORS.text });
  paragraph(doc.title, { size: 12, style: 'bold', color: COLORS.text }, 2, 2);
  const filters = doc.filters.map((f) => `${f.label}: ${f.value}`).join('    ');
  if (filters) paragraph(filters, { size: 8, style: 'normal', color: COLORS.meta });
  const books = booksLine(doc, meta.generatedAt);
  paragraph(books, { size: 8, style: 'normal', color: COLORS.meta });
  paragraph(`Generated ${momentInWords(meta.generatedAt)}`, { size: 8, style: 'normal', color: COLORS.meta });
  if (doc.summary.length > 0) y = drawSummary(t, doc.summary, { y: y + 6, usable, body, bold });
  if (doc.rows.length === 0) paragraph(doc.emptyText, { ...body, style: 'italics' }, 12, 6);
  y += 10;

  // The table: header on every page, rules under every row (stroked once a page).
  const headerCells = doc.columns.map((c, i) => cell(i, c.header, bold));
  const headerHeight = rowHeight(headerCells);
  let rules: number[] = [];
  const strokeRules = () => {
    if (rules.length === 0) return;
    for (const at of rules) pdf.moveTo(MARGIN.left, at).lineTo(MARGIN.left + usable, at);
    pdf.lineWidth(0.3).strokeColor(COLORS.rule).stroke();
    rules = [];
  };
  const drawCells = (cells: Cell[], top: number) => {
    for (const c of cells) t.draw(c.lines, c.style, c.x, top + PAD.y, c.width, c.align);
  };
  const drawHeader = () => {
    pdf.rect(MARGIN.left, y, usable, headerHeight).fill(COLORS.headerFill);
    t.forgetColor(); // the fill changed it
    drawCells(headerCells, y);
    pdf.lineWidth(0.8).strokeColor(COLORS.rule);
    pdf.moveTo(MARGIN.left, y).lineTo(MARGIN.left + usable, y);
    pdf.moveTo(MARGIN.left, y + headerHeight).lineTo(MARGIN.left + usable, y + headerHeight);
    pdf.stroke();
    y += headerHeight;
  };
  const place = (cells: Cell[], fill?: string) => {
    const h = rowHeight(cells);
    if (y + h > bottom) {
      strokeRules();
      pdf.addPage();
      t.forgetColor();
      y = MARGIN.top;
      drawHeader();
    }
    if (fill) {
      pdf.rect(MARGIN.left, y, usable, h).fill(fill);
      t.forgetColor();
    }
    drawCells(cells, y);
    y += h;
    rules.push(y);
  };

  const firstRow = doc.rows[0] ? bodyCells(doc.columns, doc.rows[0], cell, body) : [];
  if (y + headerHeight + (firstRow.length ? rowHeight(firstRow) : 0) > bottom) {
    pdf.addPage();
    y = MARGIN.top;
  }
  drawHeader();
  for (const row of doc.rows) place(bodyCells(doc.columns, row, cell, body));
  for (const total of doc.totals) place(totalCells(doc.columns, total, cell, bold), COLORS.totalFill);
  strokeRules();

  // Running heads and feet, now that the page count is known.
  drawHeadsAndFeet(pdf, t, {
    doc,
    meta,
    usable,
    pageHeight,
    books,
    verification: verificationLine(digest, chain),
  });
  if (t.missing.size > 0) options.onMissing?.([...t.missing]);
  pdf.end();
  return done;
}

function bodyCells(
  columns: Column[],
  row: Row,
  cell: (i: number, text: string, style: TextStyle) => Cell,
  style: TextStyle,
): Cell[] {
  return columns.map((c, i) => cell(i, cellText(c, row[c.key]), style));
}

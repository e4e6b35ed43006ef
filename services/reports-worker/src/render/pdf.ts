/// <reference path="../pdfmake.d.ts" />
import pdfmake from 'pdfmake';
import { formatDecimal, isDecimal } from './decimal.ts';
import type { Column, ReportDocument, Row } from './document.ts';
import { type FontSet, loadFonts } from './fonts.ts';

export interface RenderMeta {
  businessName: string;
  /** ISO moment the report was read. */
  generatedAt: string;
  /** The event-store position the report was read at. */
  position: string;
}

let fontSet: FontSet | undefined;
function setup(): FontSet {
  if (fontSet) return fontSet;
  fontSet = loadFonts();
  const allowed = fontSet.files;
  // Offline: no URL is ever fetched, and only the font files are read from disk.
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((path) => allowed.has(path));
  pdfmake.addFonts(fontSet.fonts);
  return fontSet;
}

const PAGE_WIDTH = { portrait: 595.28, landscape: 841.89 };
const MARGIN = 30;

/** A cell's text: amounts at 2 decimals, grouped; '-' for a zero where the screen shows one. */
export function cellText(column: Column, value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (column.kind === 'money' && isDecimal(value)) {
    const shown = formatDecimal(value, 2);
    return column.dashZero && /^-?0\.00$/.test(shown) ? '-' : shown;
  }
  return value;
}

function textCell(fonts: FontSet, text: string, extra: Record<string, unknown> = {}) {
  const runs = fonts.runs(text);
  if (!runs && Object.keys(extra).length === 0) return text;
  return { text: runs ?? text, ...extra };
}

/**
 * The report as a PDF: business name, title, filters, generated-at and read position on the
 * first page; the business name, title and page numbers on every page; the table header
 * repeated on every page; totals in bold; amounts right-aligned at 2 decimals. Column widths
 * are fixed (pdfmake's auto-sizing measures every cell twice and is slow on big tables).
 */
export async function renderPdf(doc: ReportDocument, meta: RenderMeta): Promise<Buffer> {
  const fonts = setup();
  const tableWidth = doc.columns.reduce((w, c) => w + c.width, 0);
  const orientation = tableWidth > PAGE_WIDTH.portrait - 2 * MARGIN - 20 ? 'landscape' : 'portrait';
  const usable = PAGE_WIDTH[orientation] - 2 * MARGIN;
  // Stretch the columns to the page width so every report looks the same.
  const scale = usable / (tableWidth + doc.columns.length * 8);
  const widths = doc.columns.map((c) => Math.floor(c.width * scale * 100) / 100);
  const right = doc.columns.map((c) => c.kind === 'money' || c.kind === 'quantity');

  const header = doc.columns.map((c, i) => ({
    text: c.header,
    bold: true,
    fillColor: '#e8eef4',
    ...(right[i] ? { alignment: 'right' } : {}),
  }));
  const body: unknown[][] = [header];
  for (const row of doc.rows) body.push(bodyRow(doc.columns, row, right, fonts));
  for (const total of doc.totals) {
    // The label spans the columns before the first total figure, so it does not wrap.
    const firstValue = doc.columns.findIndex((c, i) => i > 0 && total.values[c.key] != null);
    const span = Math.max(1, firstValue === -1 ? doc.columns.length : firstValue);
    const cells = doc.columns.map((c, i) => {
      if (i > 0 && i < span) return {};
      const text = i === 0 ? total.label : cellText({ ...c, dashZero: false }, total.values[c.key]);
      const color =
        total.tone && i > 0 && total.values[c.key]
          ? total.tone === 'negative'
            ? '#b00020'
            : '#1b7f3a'
          : undefined;
      return {
        text,
        bold: true,
        fillColor: '#f4f4f4',
        ...(i === 0 && span > 1 ? { colSpan: span } : {}),
        ...(right[i] && i > 0 ? { alignment: 'right' } : {}),
        ...(color ? { color } : {}),
      };
    });
    body.push(cells);
  }

  const filters = doc.filters.map((f) => `${f.label}: ${f.value}`).join('    ');
  const generated = `Generated ${meta.generatedAt.replace('T', ' ').slice(0, 19)} UTC, read at position ${meta.position}`;
  const content: unknown[] = [
    textCell(fonts, meta.businessName, { style: 'business' }),
    textCell(fonts, doc.title, { style: 'title' }),
    ...(filters ? [textCell(fonts, filters, { style: 'meta' })] : []),
    { text: generated, style: 'meta' },
  ];
  if (doc.summary.length > 0) {
    content.push({
      margin: [0, 6, 0, 0],
      columns: doc.summary.map((s) => ({
        width: 'auto',
        margin: [0, 0, 18, 0],
        text: [
          { text: `${s.label}: `, color: '#555555' },
          { text: /^-?\d+\.\d+$/.test(s.value) ? formatDecimal(s.value, 2) : s.value, bold: true },
        ],
      })),
    });
  }
  if (doc.rows.length === 0) content.push({ text: doc.emptyText, margin: [0, 12, 0, 6], italics: true });
  content.push({
    margin: [0, 10, 0, 0],
    table: { headerRows: 1, widths, body },
    layout: {
      hLineWidth: (i: number) => (i <= 1 ? 0.8 : 0.3),
      vLineWidth: () => 0,
      hLineColor: () => '#999999',
      paddingTop: () => 2,
      paddingBottom: () => 2,
    },
  });

  const definition = {
    pageSize: 'A4',
    pageOrientation: orientation,
    pageMargins: [MARGIN, 42, MARGIN, 36],
    info: { title: doc.title, author: meta.businessName, creator: 'Bahi' },
    header: (page: number) =>
      page === 1
        ? null
        : {
            margin: [MARGIN, 18, MARGIN, 0],
            columns: [
              textCell(fonts, meta.businessName, { bold: true, fontSize: 9 }),
              textCell(fonts, doc.title, { alignment: 'right', fontSize: 9 }),
            ],
          },
    footer: (page: number, pages: number) => ({
      margin: [MARGIN, 12, MARGIN, 0],
      fontSize: 7,
      color: '#555555',
      columns: [{ text: generated }, { text: `Page ${page} of ${pages}`, alignment: 'right' }],
    }),
    content,
    styles: {
      business: { fontSize: 14, bold: true },
      title: { fontSize: 12, bold: true, margin: [0, 2, 0, 2] },
      meta: { fontSize: 8, color: '#444444' },
    },
    defaultStyle: { font: 'Roboto', fontSize: 8 },
  };
  return pdfmake.createPdf(definition).getBuffer();
}

function bodyRow(columns: Column[], row: Row, right: boolean[], fonts: FontSet): unknown[] {
  return columns.map((c, i) => {
    const text = cellText(c, row[c.key]);
    if (right[i]) return { text, alignment: 'right' };
    return textCell(fonts, text);
  });
}

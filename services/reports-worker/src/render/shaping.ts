/**
 * Fewer shapings for figures. pdfkit shapes every distinct string with fontkit (GSUB/GPOS
 * lookups, ~35 us each) and caches the result per string; a 10,000-line ledger has some 30,000
 * distinct amounts and dates, and shaping them was half of its rendering time. A string made
 * only of figures and their punctuation is the same glyphs and advances as its characters
 * shaped one by one, *if* the font has no kerning, ligature or contextual rule among them;
 * that is checked once per font file against real shaping of every pair, and only a font that
 * passes gets the shortcut. Tested in render.int.test.ts against real shaping.
 */

/** What pdfkit's EmbeddedFont (internal) exposes: its shaping and its cache of shaped runs. */
export interface ShapedRun {
  glyphs: Array<{ id: number }>;
  positions: Array<{ xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }>;
  advanceWidth: number;
}
export interface PdfkitFont {
  layoutCache?: Record<string, ShapedRun>;
  layoutRun(text: string): ShapedRun;
  layoutCached(text: string): ShapedRun;
  /** The fontkit font behind it; its layout engine holds the GPOS processor once it has laid out text. */
  font?: {
    layout(text: string): unknown;
    getGlyph(id: number): { advanceWidth: number };
    _layoutEngine?: { engine?: { GPOSProcessor?: object } };
  };
  /** Glyph widths as written to the PDF, in 1/1000 em, and the factor from font units to those. */
  widths?: number[];
  scale?: number;
}

export const FIGURES = '0123456789.,-:() ';
const ONLY_FIGURES = /^[0-9.,\-:() ]+$/;
const verdicts = new Map<string, boolean>();

const same = (a: ShapedRun, b: ShapedRun) =>
  a.glyphs.length === b.glyphs.length &&
  a.glyphs.every((g, i) => g.id === b.glyphs[i]!.id) &&
  a.positions.every((p, i) => {
    const q = b.positions[i]!;
    return (
      p.xAdvance === q.xAdvance &&
      p.yAdvance === q.yAdvance &&
      p.xOffset === q.xOffset &&
      p.yOffset === q.yOffset
    );
  });

/** `text` laid out from its characters' own runs (the font's cache of them). */
export function composed(font: PdfkitFont, text: string): ShapedRun {
  const glyphs: ShapedRun['glyphs'] = [];
  const positions: ShapedRun['positions'] = [];
  let advanceWidth = 0;
  for (const ch of text) {
    const run = font.layoutCached(ch);
    for (const g of run.glyphs) glyphs.push(g);
    for (const p of run.positions) positions.push(p);
    advanceWidth += run.advanceWidth;
  }
  return { glyphs, positions, advanceWidth };
}

/** Whether every pair of figure characters shapes as the two characters side by side. */
export function figuresComposable(font: PdfkitFont, chars = FIGURES): boolean {
  for (const a of chars)
    for (const b of chars) {
      if (!same(font.layoutRun(a + b), composed(font, a + b))) return false;
    }
  return true;
}

/**
 * Gives one document's font the shortcut when its file passed the check (run once per file).
 * Spaces are included so a pair like "1 " is checked, though pdfkit already splits at spaces.
 */
export function shapeFiguresByCharacter(font: PdfkitFont, file: string): boolean {
  if (!font.layoutCache) return false;
  let ok = verdicts.get(file);
  if (ok === undefined) {
    ok = figuresComposable(font);
    verdicts.set(file, ok);
  }
  if (!ok) return false;
  const cache = font.layoutCache;
  const shape = font.layoutCached.bind(font);
  font.layoutCached = (text: string) => {
    const hit = cache[text];
    if (hit) return hit;
    if (text.length < 2 || !ONLY_FIGURES.test(text)) return shape(text);
    const run = composed(font, text);
    cache[text] = run;
    return run;
  };
  return true;
}

type AnchorStep = (this: unknown, mark: { markAnchor?: unknown }, base: unknown, index: number) => void;
const guarded = new WeakSet<object>();

/**
 * fontkit 2.0.4 throws on a NULL anchor in a GPOS mark-attachment lookup ("Cannot read
 * properties of null (reading 'xCoordinate')", foliojs/fontkit#367), which OpenType allows and
 * Noto Sans Gurmukhi and Malayalam have: a whole report failed on a name like 'ਗੁਰੂ'. As
 * HarfBuzz does (and fontkit's pending fix, #374), such a mark is left where it is. Patched on
 * the class the document's own fontkit uses, once; a no-op for fonts without GPOS.
 */
export function skipNullAnchors(font: PdfkitFont): void {
  const fontkitFont = font.font;
  if (!fontkitFont) return;
  if (!fontkitFont._layoutEngine) fontkitFont.layout(' ');
  const gpos = fontkitFont._layoutEngine?.engine?.GPOSProcessor;
  if (!gpos) return;
  const proto = Object.getPrototypeOf(gpos) as { applyAnchor?: AnchorStep };
  const apply = proto.applyAnchor;
  if (guarded.has(proto) || !apply) return;
  proto.applyAnchor = function (mark, base, index) {
    if (base == null || mark?.markAnchor == null) return;
    apply.call(this, mark, base, index);
  };
  guarded.add(proto);
}

/**
 * pdfkit 0.19 writes the width of glyph 0 (the placeholder box) in font units rather than in
 * 1/1000 em, while it places glyphs by their true advance: in Roboto (2048 units an em) a viewer
 * moved on twice the box's width after each one, running a box into the next word.
 */
export function fixPlaceholderWidth(font: PdfkitFont): void {
  if (font.font && font.widths && font.scale)
    font.widths[0] = font.font.getGlyph(0).advanceWidth * font.scale;
}

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

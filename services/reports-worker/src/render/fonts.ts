import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Fonts embedded in PDFs. Latin, Greek and Cyrillic print in Roboto (bundled with pdfmake);
 * a name in another script prints in the Noto font for that script, from Debian's
 * fonts-noto-core (BAHI_REPORT_FONTS_DIR overrides the directory). pdfmake picks one font per
 * text run, so each cell's text is given the font of the first non-Latin script it contains.
 */
const require = createRequire(import.meta.url);
export const ROBOTO_DIR = join(dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto');
export const DEFAULT_NOTO_DIR = '/usr/share/fonts/truetype/noto';

const SCRIPTS: Array<{ font: string; file: string; range: RegExp }> = [
  { font: 'NotoDevanagari', file: 'NotoSansDevanagari', range: /[\u0900-\u097F\uA8E0-\uA8FF]/ },
  { font: 'NotoBengali', file: 'NotoSansBengali', range: /[\u0980-\u09FF]/ },
  { font: 'NotoGurmukhi', file: 'NotoSansGurmukhi', range: /[\u0A00-\u0A7F]/ },
  { font: 'NotoGujarati', file: 'NotoSansGujarati', range: /[\u0A80-\u0AFF]/ },
  { font: 'NotoOriya', file: 'NotoSansOriya', range: /[\u0B00-\u0B7F]/ },
  { font: 'NotoTamil', file: 'NotoSansTamil', range: /[\u0B80-\u0BFF]/ },
  { font: 'NotoTelugu', file: 'NotoSansTelugu', range: /[\u0C00-\u0C7F]/ },
  { font: 'NotoKannada', file: 'NotoSansKannada', range: /[\u0C80-\u0CFF]/ },
  { font: 'NotoMalayalam', file: 'NotoSansMalayalam', range: /[\u0D00-\u0D7F]/ },
  { font: 'NotoSinhala', file: 'NotoSansSinhala', range: /[\u0D80-\u0DFF]/ },
  { font: 'NotoThai', file: 'NotoSansThai', range: /[\u0E00-\u0E7F]/ },
  { font: 'NotoHebrew', file: 'NotoSansHebrew', range: /[\u0590-\u05FF]/ },
  {
    font: 'NotoArabic',
    file: 'NotoNaskhArabic',
    range: /[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]/,
  },
];
/** Anything beyond Latin-1, Latin Extended, Greek and Cyrillic (which Roboto covers). */
const BEYOND_ROBOTO = /[^\u0020-\u024F\u0370-\u052F\u1E00-\u1FFF\u2000-\u20CF\u2100-\u218F]/;

const RTL = new Set(['NotoHebrew', 'NotoArabic']);

/** A font's natural line height in em (ascent - descent + line gap), from its tables. */
function lineHeightOf(file: string): number {
  // fontkit is pdfkit's own font reader, resolved from pdfmake so the same copy is used.
  const fontkit = createRequire(require.resolve('pdfmake'))('fontkit') as {
    openSync(path: string): { unitsPerEm: number; ascent: number; descent: number; lineGap: number };
  };
  const f = fontkit.openSync(file);
  return (f.ascent - f.descent + f.lineGap) / f.unitsPerEm;
}

export interface FontSet {
  fonts: Record<string, Record<'normal' | 'bold' | 'italics' | 'bolditalics', string>>;
  /** The font for a piece of text, or undefined for the default (Roboto). */
  fontFor(text: string): string | undefined;
  /**
   * Text split into runs of one font each (Latin in Roboto, each other script in its Noto
   * font; spaces, digits and punctuation stay with the run they are in), or undefined when
   * all of it prints in Roboto.
   */
  runs(text: string): Array<{ text: string; font?: string; lineHeight?: number }> | undefined;
  files: Set<string>;
}

export function loadFonts(notoDir = process.env.BAHI_REPORT_FONTS_DIR || DEFAULT_NOTO_DIR): FontSet {
  const roboto = (name: string) => join(ROBOTO_DIR, `Roboto-${name}.ttf`);
  const fonts: FontSet['fonts'] = {
    Roboto: {
      normal: roboto('Regular'),
      bold: roboto('Medium'),
      italics: roboto('Italic'),
      bolditalics: roboto('MediumItalic'),
    },
  };
  const available: Array<(typeof SCRIPTS)[number] & { lineHeight: number }> = [];
  // Noto's Indic and Arabic fonts have taller ascent and descent than Roboto: scaled line
  // heights keep a row with such a name as tall as the others.
  const robotoHeight = lineHeightOf(fonts.Roboto!.normal);
  for (const script of SCRIPTS) {
    const regular = join(notoDir, `${script.file}-Regular.ttf`);
    if (!existsSync(regular)) continue;
    const boldFile = join(notoDir, `${script.file}-Bold.ttf`);
    const bold = existsSync(boldFile) ? boldFile : regular;
    fonts[script.font] = { normal: regular, bold, italics: regular, bolditalics: bold };
    available.push({ ...script, lineHeight: Math.min(1, robotoHeight / lineHeightOf(regular)) });
  }
  const files = new Set(Object.values(fonts).flatMap((f) => Object.values(f)));
  return {
    fonts,
    files,
    fontFor(text: string) {
      if (!BEYOND_ROBOTO.test(text)) return undefined;
      return available.find((s) => s.range.test(text))?.font;
    },
    runs(text: string) {
      if (!BEYOND_ROBOTO.test(text)) return undefined;
      const runs: Array<{ text: string; font?: string }> = [];
      let current: { text: string; font?: string } | undefined;
      for (const ch of text) {
        const neutral = /[\s\d\p{P}\p{S}]/u.test(ch);
        const font = neutral ? current?.font : available.find((s) => s.range.test(ch))?.font;
        if (current && (neutral || current.font === font)) current.text += ch;
        else {
          current = font ? { text: ch, font } : { text: ch };
          runs.push(current);
        }
      }
      const out: Array<{ text: string; font?: string; lineHeight?: number }> = [];
      for (const run of runs) {
        const script = available.find((s) => s.font === run.font);
        if (!script) {
          out.push(run);
          continue;
        }
        const styled = (t: string) => ({ text: t, font: script.font, lineHeight: script.lineHeight });
        if (!RTL.has(script.font)) {
          out.push(styled(run.text));
          continue;
        }
        // pdfkit orders a right-to-left run's words itself, but a space inside the run lands at
        // its edge: the words are given one by one, with the spaces as runs of their own.
        const tokens = run.text
          .trim()
          .split(/(\s+)/)
          .filter((t) => t !== '');
        for (const token of tokens) out.push(/^\s+$/.test(token) ? { text: token } : styled(token));
        if (/\s$/.test(run.text)) out.push({ text: ' ' });
      }
      return out;
    },
  };
}

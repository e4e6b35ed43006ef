import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Fonts embedded in PDFs. Latin, Greek and Cyrillic print in Roboto (the copy that comes with
 * pdfmake's package); a name in another script prints in the Noto font for that script, from
 * Debian's fonts-noto-core (BAHI_REPORT_FONTS_DIR overrides the directory). One piece of text
 * is drawn in one font, so text is split into runs of one script each.
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
const NEUTRAL = /[\s\d\p{P}\p{S}]/u;

const RTL = new Set(['NotoHebrew', 'NotoArabic']);

export type FontStyle = 'normal' | 'bold' | 'italics';
export const DEFAULT_FAMILY = 'Roboto';

export interface Run {
  text: string;
  /** The font family; Roboto when absent. */
  font?: string;
  /** Written right to left (Hebrew, Arabic): the words of such runs are laid out in reverse. */
  rtl?: boolean;
}

export interface FontSet {
  /** Font files by family and style (a family without bold or italics reuses its regular). */
  fonts: Record<string, Record<FontStyle, string>>;
  /** The bytes of every font file, read once per process. */
  bytes(file: string): Buffer;
  /**
   * Text split into runs of one font each (Latin in Roboto, each other script in its Noto
   * font; spaces, digits and punctuation stay with the run they are in), or undefined when all
   * of it prints in Roboto.
   */
  runs(text: string): Run[] | undefined;
}

export function loadFonts(notoDir = process.env.BAHI_REPORT_FONTS_DIR || DEFAULT_NOTO_DIR): FontSet {
  const roboto = (name: string) => join(ROBOTO_DIR, `Roboto-${name}.ttf`);
  const fonts: FontSet['fonts'] = {
    [DEFAULT_FAMILY]: { normal: roboto('Regular'), bold: roboto('Medium'), italics: roboto('Italic') },
  };
  const available: typeof SCRIPTS = [];
  for (const script of SCRIPTS) {
    const regular = join(notoDir, `${script.file}-Regular.ttf`);
    if (!existsSync(regular)) continue;
    const boldFile = join(notoDir, `${script.file}-Bold.ttf`);
    fonts[script.font] = {
      normal: regular,
      bold: existsSync(boldFile) ? boldFile : regular,
      italics: regular,
    };
    available.push(script);
  }
  const cache = new Map<string, Buffer>();
  return {
    fonts,
    bytes(file) {
      let bytes = cache.get(file);
      if (!bytes) {
        bytes = readFileSync(file);
        cache.set(file, bytes);
      }
      return bytes;
    },
    runs(text) {
      if (!BEYOND_ROBOTO.test(text)) return undefined;
      const runs: Run[] = [];
      let current: Run | undefined;
      for (const ch of text) {
        const neutral = NEUTRAL.test(ch);
        const font = neutral ? current?.font : available.find((s) => s.range.test(ch))?.font;
        if (current && (neutral || current.font === font)) current.text += ch;
        else {
          current = font ? { text: ch, font, ...(RTL.has(font) ? { rtl: true } : {}) } : { text: ch };
          runs.push(current);
        }
      }
      return runs;
    },
  };
}

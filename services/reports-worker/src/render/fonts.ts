/// <reference path="../fontkit.d.ts" />
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Fontkit from 'fontkit';

/**
 * Fonts embedded in PDFs, all from npm packages (production dependencies of this workspace), so
 * a file prints the same on a fresh clone, in the image and on a developer's machine, whatever
 * fonts the machine has. Latin, Greek and Cyrillic print in Roboto (the copy in pdfmake's
 * package); other scripts in the Noto font for that script; a character none of them has prints
 * as Roboto's placeholder box and is reported. One piece of text is drawn in one font, so text
 * is split into runs of one font each. Font files are read when first needed, once per process.
 */
const localRequire = createRequire(import.meta.url);

/** An npm package's folder; found above its entry file when its `exports` hide package.json. */
function packageDir(name: string): string {
  try {
    return dirname(localRequire.resolve(`${name}/package.json`));
  } catch {
    let dir = dirname(localRequire.resolve(name));
    while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
    return dir;
  }
}

export const ROBOTO_DIR = join(packageDir('pdfmake'), 'fonts', 'Roboto');

interface Face {
  family: string;
  regular: string;
  bold: string;
  /**
   * The text it is the first choice for. A font is only used for characters it has, so the
   * hint orders the fonts (a Han character in the Chinese font before the Korean one) and keeps
   * the other files unread.
   */
  hint: RegExp;
  rtl?: boolean;
  /** Its glyphs do not map back to its characters one by one: drawn with its text attached. */
  shaped?: boolean;
  /** Its space is wider than a word space (the emoji font's): spaces after it go to Roboto. */
  wideSpace?: boolean;
}

/** Google Fonts' static TTFs as the @expo-google-fonts packages ship them (400 and 700). */
const expo = (pkg: string, name: string) => {
  const dir = packageDir(`@expo-google-fonts/${pkg}`);
  return {
    regular: join(dir, '400Regular', `${name}_400Regular.ttf`),
    bold: join(dir, '700Bold', `${name}_700Bold.ttf`),
  };
};
/** Noto fonts as the @embedpdf/fonts-* packages ship them (CJK as OTF). */
const embedpdf = (pkg: string, name: string, type = 'otf') => {
  const dir = join(packageDir(`@embedpdf/${pkg}`), 'fonts');
  return { regular: join(dir, `${name}-Regular.${type}`), bold: join(dir, `${name}-Bold.${type}`) };
};

function faces(): Face[] {
  // Conjuncts, and vowel signs drawn before their consonant: a glyph is not one character.
  const indic = (family: string, pkg: string, name: string, hint: RegExp): Face => ({
    family,
    ...expo(pkg, name),
    hint,
    shaped: true,
  });
  return [
    indic('NotoDevanagari', 'noto-sans-devanagari', 'NotoSansDevanagari', /[\u0900-\u097F\uA8E0-\uA8FF]/),
    indic('NotoBengali', 'noto-sans-bengali', 'NotoSansBengali', /[\u0980-\u09FF]/),
    indic('NotoGurmukhi', 'noto-sans-gurmukhi', 'NotoSansGurmukhi', /[\u0A00-\u0A7F]/),
    indic('NotoGujarati', 'noto-sans-gujarati', 'NotoSansGujarati', /[\u0A80-\u0AFF]/),
    indic('NotoOriya', 'noto-sans-oriya', 'NotoSansOriya', /[\u0B00-\u0B7F]/),
    indic('NotoTamil', 'noto-sans-tamil', 'NotoSansTamil', /[\u0B80-\u0BFF]/),
    indic('NotoTelugu', 'noto-sans-telugu', 'NotoSansTelugu', /[\u0C00-\u0C7F]/),
    indic('NotoKannada', 'noto-sans-kannada', 'NotoSansKannada', /[\u0C80-\u0CFF]/),
    indic('NotoMalayalam', 'noto-sans-malayalam', 'NotoSansMalayalam', /[\u0D00-\u0D7F]/),
    indic('NotoSinhala', 'noto-sans-sinhala', 'NotoSansSinhala', /[\u0D80-\u0DFF]/),
    indic('NotoThai', 'noto-sans-thai', 'NotoSansThai', /[\u0E00-\u0E7F]/),
    {
      family: 'NotoHebrew',
      ...expo('noto-sans-hebrew', 'NotoSansHebrew'),
      hint: /[\u0590-\u05FF\uFB1D-\uFB4F]/,
      rtl: true,
    },
    {
      // Naskh, not Nastaliq, for Urdu too: it has every Urdu letter and its glyphs keep to the
      // line height every row has (Nastaliq's tall diagonal words would not). This build has a
      // glyph per letter form; Google Fonts' current one draws ٹ, ی and ب on one dotless body,
      // so a PDF's text of an Urdu name read back as other letters.
      family: 'NotoArabic',
      ...embedpdf('fonts-arabic', 'NotoNaskhArabic', 'ttf'),
      hint: /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/,
      rtl: true,
    },
    {
      // Monochrome: PDF text has no colour glyphs. A keycap or a character asking for emoji
      // presentation (U+FE0F) goes here too, before Roboto's plain symbol.
      family: 'NotoEmoji',
      ...expo('noto-emoji', 'NotoEmoji'),
      hint: /[\p{Emoji_Presentation}\u{1F1E6}-\u{1F1FF}\uFE0F\u20E3]/u,
      wideSpace: true,
    },
    {
      // Also Traditional Chinese and Japanese: it has every character of Big5 and Shift_JIS
      // (docs/decisions.md), in Chinese glyph forms.
      family: 'NotoCJK',
      ...embedpdf('fonts-sc', 'NotoSansHans'),
      hint: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303F\u3100-\u312F\uFF00-\uFFEF]/u,
    },
    { family: 'NotoKorean', ...embedpdf('fonts-kr', 'NotoSansKR'), hint: /\p{Script=Hangul}/u },
  ];
}

/**
 * Every font file a report may read: Roboto's three and each face's regular and bold. The image
 * carries these files alone, not the whole font packages (scripts/build-services.ts, --image).
 */
export function fontFiles(): string[] {
  const roboto = ['Regular', 'Medium', 'Italic'].map((name) => join(ROBOTO_DIR, `Roboto-${name}.ttf`));
  return [...roboto, ...faces().flatMap((face) => [face.regular, face.bold])];
}

export type FontStyle = 'normal' | 'bold' | 'italics';
export const DEFAULT_FAMILY = 'Roboto';

export interface Run {
  text: string;
  /** The font family; Roboto when absent. */
  font?: string;
  /** Written right to left (Hebrew, Arabic): the words of such runs are laid out in reverse. */
  rtl?: boolean;
  /** Characters no font has: drawn as Roboto's placeholder boxes. */
  missing?: boolean;
  /**
   * Drawn with its text attached (the PDF's ActualText), so that it reads, copies and searches
   * as its characters: placeholder boxes, and scripts whose glyphs are not one per character.
   */
  actual?: boolean;
}

export interface FontSet {
  /** Font files by family and style (a family without italics uses its regular). */
  fonts: Record<string, Record<FontStyle, string>>;
  /** The bytes of a font file, read once per process. */
  bytes(file: string): Buffer;
  /**
   * Text split into runs of one font each (Latin in Roboto, each other script in its Noto
   * font, characters no font has in runs of their own; spaces stay with the run they are in),
   * or undefined when all of it prints in Roboto.
   */
  runs(text: string): Run[] | undefined;
}

/** Printable ASCII: Roboto has all of it, and most of a report is nothing else. */
const ASCII = /^[\x20-\x7E]*$/;
/** Clusters that never decide a font: they stay with the run they are in. */
const SPACE_OR_CONTROL = /^[\s\p{Cc}\p{Cf}]/u;
/**
 * Digits, punctuation and symbols stay with the run they are in when its font has them and it is
 * right to left (they are laid out with its words) or Roboto lacks them (a danda, CJK commas).
 */
const NEUTRAL = /^[\p{Nd}\p{P}\p{S}]/u;
/**
 * Invisible characters a font may lack without harm: dropped from the drawn text rather than
 * drawn as a box (ZWJ and ZWNJ, variation selectors, word joiner, soft hyphen).
 */
const IGNORABLE = /\u00AD|[\u200B-\u200D]|[\u2060-\u2064]|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]/u;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Index into the faces; ROBOTO and MISSING are the two fonts outside that list. */
const ROBOTO = -1;
const MISSING = -2;

export function loadFonts(): FontSet {
  const roboto = (name: string) => join(ROBOTO_DIR, `Roboto-${name}.ttf`);
  const list = faces();
  const fonts: FontSet['fonts'] = {
    [DEFAULT_FAMILY]: { normal: roboto('Regular'), bold: roboto('Medium'), italics: roboto('Italic') },
  };
  for (const face of list)
    fonts[face.family] = { normal: face.regular, bold: face.bold, italics: face.regular };

  const cache = new Map<string, Buffer>();
  const bytes = (file: string) => {
    let b = cache.get(file);
    if (!b) {
      b = readFileSync(file);
      cache.set(file, b);
    }
    return b;
  };
  const parsed = new Map<number, Fontkit.Font>();
  const font = (i: number) => {
    let f = parsed.get(i);
    if (!f) {
      // fontkit is required when a font is first parsed, not at start-up: the same CommonJS copy
      // pdfkit requires, loaded once. In the image's bundle (scripts/build-services.ts --image)
      // this must be the free `require`, which esbuild bundles as it bundles pdfkit's own
      // require('fontkit'): the image has no node_modules/fontkit for a createRequire() one to
      // find ("Cannot find module 'fontkit'"). An ES module run from source has no free require.
      const fontkit = (
        typeof require === 'function' ? require('fontkit') : localRequire('fontkit')
      ) as typeof Fontkit;
      f = fontkit.create(bytes(i === ROBOTO ? fonts[DEFAULT_FAMILY]!.normal : list[i]!.regular));
      parsed.set(i, f);
    }
    return f;
  };
  /** Whether font `i` has every visible character of the cluster. */
  const has = (i: number, cluster: string) => {
    const f = font(i);
    for (const ch of cluster) {
      if (!f.hasGlyphForCodePoint(ch.codePointAt(0)!) && !IGNORABLE.test(ch)) return false;
    }
    return true;
  };
  const chosen = new Map<string, number>();
  /** The font for a cluster: a font its script hints at, Roboto, any other font, or none. */
  const choose = (cluster: string) => {
    let i = chosen.get(cluster);
    if (i !== undefined) return i;
    const hinted = list.flatMap((face, n) => (face.hint.test(cluster) ? [n] : []));
    const order = [...hinted, ROBOTO, ...list.map((_, n) => n).filter((n) => !hinted.includes(n))];
    i = order.find((n) => has(n, cluster)) ?? MISSING;
    chosen.set(cluster, i);
    return i;
  };
  /** The cluster as drawn in font `i`: without the invisible characters that font lacks. */
  const drawn = (i: number, cluster: string) => {
    if (!IGNORABLE.test(cluster)) return cluster;
    const f = font(i);
    return [...cluster]
      .filter((ch) => !IGNORABLE.test(ch) || f.hasGlyphForCodePoint(ch.codePointAt(0)!))
      .join('');
  };

  return {
    fonts,
    bytes,
    runs(text) {
      if (ASCII.test(text)) return undefined;
      const runs: Array<Run & { face: number }> = [];
      let current: (Run & { face: number }) | undefined;
      for (const { segment } of graphemes.segment(text)) {
        let i: number;
        if (current && SPACE_OR_CONTROL.test(segment))
          i = current.face >= 0 && list[current.face]!.wideSpace ? ROBOTO : current.face;
        else if (
          current &&
          current.face !== MISSING &&
          NEUTRAL.test(segment) &&
          has(current.face, segment) &&
          (current.rtl || !has(ROBOTO, segment))
        )
          i = current.face;
        else i = SPACE_OR_CONTROL.test(segment) ? ROBOTO : choose(segment);
        const piece = drawn(i === MISSING ? ROBOTO : i, segment);
        if (current && current.face === i) current.text += piece;
        else {
          const face = i >= 0 ? list[i]! : undefined;
          current = {
            text: piece,
            face: i,
            ...(face ? { font: face.family } : {}),
            ...(face?.rtl ? { rtl: true } : {}),
            ...(i === MISSING ? { missing: true } : {}),
            ...(i === MISSING || face?.shaped ? { actual: true } : {}),
          };
          runs.push(current);
        }
      }
      if (runs.length === 1 && runs[0]!.face === ROBOTO && runs[0]!.text === text) return undefined;
      return runs.map(({ face: _, ...run }) => run);
    },
  };
}

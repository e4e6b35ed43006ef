// fontkit (pdfkit's font engine) ships no types; this is the part the font coverage check uses.
declare module 'fontkit' {
  interface Font {
    postscriptName: string;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}

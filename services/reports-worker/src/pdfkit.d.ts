// pdfkit ships no types; this is the part of its API the PDF renderer uses.
declare module 'pdfkit' {
  interface DocumentOptions {
    size?: string | [number, number];
    layout?: 'portrait' | 'landscape';
    margins?: { top: number; bottom: number; left: number; right: number };
    bufferPages?: boolean;
    autoFirstPage?: boolean;
    /** The font the document starts with (a path or buffer): no standard font is loaded. */
    font?: string | Buffer;
    compress?: boolean;
    info?: Record<string, string>;
  }
  interface TextOptions {
    lineBreak?: boolean;
    baseline?: 'alphabetic' | 'top' | number;
  }
  class PDFDocument {
    constructor(options?: DocumentOptions);
    page: { width: number; height: number };
    /** The current font (internal): its ascender in 1/1000 em places the baseline. */
    _font: import('./render/shaping.ts').PdfkitFont & { ascender: number };
    registerFont(name: string, src: string | Buffer): this;
    font(name: string, size?: number): this;
    fontSize(size: number): this;
    currentLineHeight(includeGap?: boolean): number;
    widthOfString(text: string): number;
    text(text: string, x: number, y: number, options?: TextOptions): this;
    /** One line of the current page's content stream (internal: text() writes BT .. ET with it). */
    addContent(data: string): this;
    fillColor(color: string): this;
    strokeColor(color: string): this;
    lineWidth(width: number): this;
    rect(x: number, y: number, w: number, h: number): this;
    moveTo(x: number, y: number): this;
    lineTo(x: number, y: number): this;
    fill(color?: string): this;
    stroke(): this;
    addPage(): this;
    bufferedPageRange(): { start: number; count: number };
    switchToPage(n: number): this;
    on(event: 'data', listener: (chunk: Buffer) => void): this;
    on(event: 'end', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
    end(): void;
  }
  export default PDFDocument;
}

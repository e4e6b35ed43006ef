// The renderers alone (no queue, Redis or event store): what the benchmark loads.
export { type ReportDocument, type ReportSource, toDocument } from './document.ts';
export { type RenderMeta, renderPdf } from './pdf.ts';
export { type FileVerification, readFileVerification } from './verification.ts';
export { renderXlsx } from './xlsx.ts';

/** The reports that can be downloaded or sent: the names used in URLs and in WhatsApp requests. */
export const REPORT_NAMES = [
  'stock',
  'ledger',
  'daywise-report',
  'balances',
  'cashbook-report',
  'payments',
  'salary-report',
] as const;
export type ReportName = (typeof REPORT_NAMES)[number];
export const FORMATS = ['pdf', 'xlsx'] as const;
export type ReportFormat = (typeof FORMATS)[number];

/** What the query side hands over: the JSON the on-screen report answered, and its filters. */
export interface ReportSource {
  report: ReportName;
  /** The query parameters of the report (and the ledger's type and id). */
  params: Record<string, string>;
  /** Names for ids in the filters (city, collector, entity), looked up by the query side. */
  names?: Record<string, string>;
  data: unknown;
}

import { api } from '@bahi/ui';
import { keepPreviousData, queryOptions } from '@bahi/ui/screen';

export const LEDGER_TYPES = ['Funder', 'Agent', 'Collector', 'Godown'] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];
export const isLedgerType = (t: string | undefined): t is LedgerType =>
  (LEDGER_TYPES as readonly string[]).includes(t ?? '');

/** A ledger line (spec section 3) with its journal identity and record (the drill-down). */
export interface LedgerLine {
  date: string;
  particulars: string;
  type: 'Debit' | 'Credit';
  debit: string;
  credit: string;
  balance: string;
  key?: string;
  record?: { type: string; id: string };
  recorded_at?: string;
}

export interface Ledger {
  entity: { id: string; name: string; type: LedgerType; city_id: string | null };
  openingBalance: string;
  closingBalance: string;
  totalDebit: string;
  totalCredit: string;
  transactions: LedgerLine[];
}

export interface LedgerParams {
  startDate?: string;
  endDate?: string;
  asOf?: string;
  knownAt?: string;
}

/** GET /reports/ledger/{type}/{id}: opening, lines with the running balance, closing. */
export const ledgerQuery = (type: LedgerType, id: string, params: LedgerParams) =>
  queryOptions({
    queryKey: ['reports', 'ledger', type, id, params],
    queryFn: ({ signal }) => api.get<Ledger>(`/reports/ledger/${type}/${id}`, { ...params }, signal),
    placeholderData: keepPreviousData,
    // A ledger known at a moment never changes: no refetch for it.
    staleTime: params.knownAt ? Number.POSITIVE_INFINITY : 0,
  });

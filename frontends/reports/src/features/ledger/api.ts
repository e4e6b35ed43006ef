import type { LedgerReport as Ledger, LedgerLine, LedgerParams } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { keepPreviousData, queryOptions } from '@bahi/ui/screen';

export const LEDGER_TYPES = ['Funder', 'Agent', 'Collector', 'Godown'] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];
export const isLedgerType = (t: string | undefined): t is LedgerType =>
  (LEDGER_TYPES as readonly string[]).includes(t ?? '');

// The ledger and its lines (spec section 3), typed by the route's response schema (issue #19).
// GET /reports/ledger/{type}/{id}'s query string, the route's own schema's input.
export type { Ledger, LedgerLine, LedgerParams };

/** GET /reports/ledger/{type}/{id}: opening, lines with the running balance, closing. */
export const ledgerQuery = (type: LedgerType, id: string, params: LedgerParams) =>
  queryOptions({
    queryKey: ['reports', 'ledger', type, id, params],
    queryFn: ({ signal }) => api.get<Ledger>(`/reports/ledger/${type}/${id}`, { ...params }, signal),
    placeholderData: keepPreviousData,
    // A ledger known at a moment never changes: no refetch for it.
    staleTime: params.knownAt ? Number.POSITIVE_INFINITY : 0,
  });

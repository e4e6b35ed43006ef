import type { BalancesParams, BalancesReport } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { keepPreviousData, type PartyKind, queryOptions } from '@bahi/ui/screen';

/** The four tabs of the Balances report, as GET /reports/balances names its lists. */
export type BalanceTab = 'funders' | 'agents' | 'collectors' | 'godowns';

export const BALANCE_TABS: readonly { value: BalanceTab; label: string; kind: PartyKind }[] = [
  { value: 'funders', label: 'Funders', kind: 'Funder' },
  { value: 'agents', label: 'Agents', kind: 'Agent' },
  { value: 'collectors', label: 'Collectors', kind: 'Collector' },
  { value: 'godowns', label: 'Godowns', kind: 'Godown' },
];

/**
 * GET /reports/balances: one list page of each kind (godowns have no city; the server ignores
 * city_id there), typed by the route's response schema (issue #19).
 */
export type Balances = BalancesReport;

// GET /reports/balances' query string, the route's own schema's input (paging, filters, time travel).
export type { BalancesParams };

export const balancesQuery = (params: BalancesParams) =>
  queryOptions({
    queryKey: ['reports', 'balances', params],
    queryFn: ({ signal }) => api.get<Balances>('/reports/balances', params, signal),
    placeholderData: keepPreviousData,
  });

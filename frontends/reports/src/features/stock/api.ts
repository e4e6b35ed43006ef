import type { StockMap, StockParams, StockRow } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { queryOptions } from '@bahi/ui/screen';

// GET /reports/stock's answer, typed by the route's response schema (issue #19).
export type { StockMap, StockRow };

/** A card of the Stock report: one godown, told apart by its id. */
export interface GodownStock {
  godownId: string;
  name: string;
  rows: StockRow[];
}

/** The map as one card per godown (by godown_id), in name order. */
export function godownsOf(map: StockMap): GodownStock[] {
  const byId = new Map<string, GodownStock>();
  for (const [name, rows] of Object.entries(map ?? {})) {
    for (const row of rows ?? []) {
      const card = byId.get(row.godown_id) ?? { godownId: row.godown_id, name, rows: [] };
      card.rows.push(row);
      byId.set(row.godown_id, card);
    }
  }
  return [...byId.values()].sort(
    (a, b) =>
      a.name.localeCompare(b.name) || (a.godownId < b.godownId ? -1 : a.godownId > b.godownId ? 1 : 0),
  );
}

// GET /reports/stock's query string, the route's own schema's input (time travel: asOf, knownAt).
export type { StockParams };

export const stockQuery = (params: StockParams) =>
  queryOptions({
    queryKey: ['reports', 'stock', params],
    queryFn: ({ signal }) => api.get<StockMap>('/reports/stock', params, signal),
  });

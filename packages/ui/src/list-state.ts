import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list's page, page size, tab and filters, kept in the URL so a link reproduces the screen.
 * Changing a filter or the tab goes back to the first page.
 */
export function useListState<F extends string>(options: {
  pageSize: number;
  filters?: readonly F[];
  /** 'push': each filter change is a browser history entry, so Back returns to the last filter. */
  history?: 'push' | 'replace';
}): {
  page: number;
  pageSize: number;
  tab: string | undefined;
  filters: Record<F, string>;
  setPage(page: number): void;
  setPageSize(size: number): void;
  setTab(tab: string | undefined): void;
  setFilter(name: F, value: string): void;
} {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Number(params.get('limit')) || options.pageSize;
  const tab = params.get('tab') ?? undefined;
  const names = options.filters ?? [];
  const key = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when the query string changes
  const filters = useMemo(
    () => Object.fromEntries(names.map((n) => [n, params.get(n) ?? ''])) as Record<F, string>,
    [key],
  );
  const update = useCallback(
    (change: Record<string, string | undefined>, resetPage: boolean) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(change)) {
            if (v === undefined || v === '') next.delete(k);
            else next.set(k, v);
          }
          if (resetPage) next.delete('page');
          return next;
        },
        { replace: options.history !== 'push' },
      ),
    [setParams, options.history],
  );
  return {
    page,
    pageSize,
    tab,
    filters,
    setPage: (p) => update({ page: p > 1 ? String(p) : undefined }, false),
    setPageSize: (s) => update({ limit: s === options.pageSize ? undefined : String(s) }, true),
    setTab: (t) => update({ tab: t }, true),
    setFilter: (n, v) => update({ [n]: v }, true),
  };
}

import { api } from '@bahi/ui';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/** What a money movement may change: every balance, list and report (and the dashboard's totals). */
export const MONEY_AREAS: QueryKey[] = [
  ['masters'],
  ['parties'],
  ['transactions'],
  ['reports'],
  ['dashboard'],
];

/**
 * POST of a money movement (payment, salary, clearing payout, transfer, expense, income): on
 * success every area whose figures it moves is refreshed, so the lists behind the dialog show it.
 */
export function useMoneyPost<T>(path: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: T) => api.post(path, body),
    onSuccess: () => Promise.all(MONEY_AREAS.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

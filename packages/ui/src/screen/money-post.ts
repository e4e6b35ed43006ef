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
  return useMoneyWrite((body: T) => api.post(path, body));
}

/** Any write that moves money or stock (an edit, a delete, a return), refreshing as useMoneyPost does. */
export function useMoneyWrite<T>(write: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => Promise.all(MONEY_AREAS.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

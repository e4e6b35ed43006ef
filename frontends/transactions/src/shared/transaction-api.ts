import type { CustomFieldValue } from '@bahi/contracts';
import { api } from '@bahi/ui';
import { useMoneyWrite } from '@bahi/ui/screen';

/** A write to the transactions API that refreshes everything it can move (lists, balances, stock). */
export const useTransactionWrite = useMoneyWrite;

export const post = (path: string) => (body: unknown) => api.post(path, body);
export const save = (path: string, id: string | null) => (body: unknown) =>
  id ? api.put(`${path}/${id}`, body) : api.post(path, body);
export const remove = (path: string) => (id: string) => api.delete(`${path}/${id}`);

// Custom field values as a list row carries them (spec section 3): the lists' schema (issue #19).
export type { CustomFieldValue };

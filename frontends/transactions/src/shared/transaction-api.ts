import { api } from '@bahi/ui';
import { useMutation, useQueryClient } from '@bahi/ui/screen';

/** What a purchase, sale or return moves: lists, balances, stock, reports. */
const TOUCHES = [['transactions'], ['masters'], ['parties'], ['reports'], ['dashboard']];

/** A write to the transactions API that refreshes everything it can move. */
export function useTransactionWrite<T>(write: (body: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => Promise.all(TOUCHES.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

export const post = (path: string) => (body: unknown) => api.post(path, body);
export const save = (path: string, id: string | null) => (body: unknown) =>
  id ? api.put(`${path}/${id}`, body) : api.post(path, body);
export const remove = (path: string) => (id: string) => api.delete(`${path}/${id}`);

/** Custom field values as a list row carries them (spec section 3). */
export interface CustomFieldValue {
  id: string;
  custom_field_definition_id: string;
  value: unknown;
  definition: { name: string };
}

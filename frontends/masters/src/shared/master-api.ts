import { api } from '@bahi/ui';
import { type QueryKey, useMutation, useQueryClient } from '@bahi/ui/screen';

/** What a save touches: the master lists and pickers (balances and names show there). */
export const MASTER_KEYS: QueryKey[] = [['masters'], ['parties']];

/** Create, update and delete of one master kind (`/masters/{path}`), refreshing what they touch. */
export function useMasterMutations<T>(path: string, touches: QueryKey[] = MASTER_KEYS) {
  const client = useQueryClient();
  const refresh = () => Promise.all(touches.map((queryKey) => client.invalidateQueries({ queryKey })));
  const save = useMutation({
    mutationFn: (v: { id: string | null; body: T }) =>
      v.id ? api.put(`/masters/${path}/${v.id}`, v.body) : api.post(`/masters/${path}`, v.body),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.delete(`/masters/${path}/${id}`),
    onSuccess: refresh,
  });
  return { save, remove };
}

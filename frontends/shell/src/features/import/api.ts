import type { ImportCommitAnswer, ImportKind, ImportPreview } from '@bahi/contracts';
import { API_BASE, ApiError, api, download, getToken, IDEMPOTENCY_HEADER, saveFile } from '@bahi/ui';
import { queryOptions, useMutation, useQueryClient } from '@bahi/ui/screen';

/** GET /imports/{id}: the preview of an upload (each row's outcome, the effect, the commit). */
export const importQuery = (id: string) =>
  queryOptions({
    queryKey: ['settings', 'imports', id],
    queryFn: ({ signal }) => api.get<ImportPreview>(`/imports/${id}`, undefined, signal),
  });

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * POST /imports?kind&file_name with the file itself as the body (XLSX or CSV bytes, no multipart):
 * the JSON client sends JSON only, so this one request is made here.
 */
async function uploadFile(kind: ImportKind, file: File): Promise<ImportPreview> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': /\.csv$/i.test(file.name) ? 'text/csv' : file.type || XLSX,
    [IDEMPOTENCY_HEADER]:
      typeof crypto !== 'undefined' && 'randomUUID' in crypto
        ? crypto.randomUUID()
        : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`,
  };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  const query = new URLSearchParams({ kind, file_name: file.name });
  const res = await fetch(`${API_BASE}/imports?${query}`, { method: 'POST', headers, body: file });
  const body: unknown = (res.headers.get('content-type') ?? '').includes('json')
    ? await res.json().catch(() => undefined)
    : undefined;
  if (!res.ok) throw new ApiError(res.status, body);
  return body as ImportPreview;
}

export function useUploadImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImportKind; file: File }) => uploadFile(kind, file),
    onSuccess: (preview) => client.setQueryData(importQuery(preview.id).queryKey, preview),
  });
}

export function useCommitImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<ImportCommitAnswer>(`/imports/${id}/commit`),
    // The import itself and every list the new records appear in.
    onSettled: () => client.invalidateQueries(),
  });
}

/** The template of a kind, saved as the browser's download. */
export async function downloadTemplate(kind: ImportKind, format: 'xlsx' | 'csv'): Promise<void> {
  const answer = await download(`/imports/templates/${kind}.${format}`);
  if (answer.blob) saveFile(answer.blob, answer.fileName ?? `bahi-${kind}-template.${format}`);
}

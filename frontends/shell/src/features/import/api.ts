import {
  IMPORT_PROGRESS_HEADER,
  type ImportCommitAnswer,
  type ImportKind,
  type ImportList,
  type ImportPreview,
  type ImportProgress,
  type ImportUndoAnswer,
} from '@bahi/contracts';
import { API_BASE, ApiError, api, download, getToken, IDEMPOTENCY_HEADER, request, saveFile } from '@bahi/ui';
import { queryOptions, useMutation, useQueryClient } from '@bahi/ui/screen';

/** GET /imports/{id}: the preview of an upload (each row's outcome, the effect, the commit). */
export const importQuery = (id: string) =>
  queryOptions({
    queryKey: ['settings', 'imports', id],
    queryFn: ({ signal }) => api.get<ImportPreview>(`/imports/${id}`, undefined, signal),
  });

/** GET /imports: the past uploads, newest first. */
export const importsQuery = (page: number, limit: number) =>
  queryOptions({
    queryKey: ['settings', 'imports', 'list', page, limit],
    queryFn: ({ signal }) => api.get<ImportList>('/imports', { page, limit }, signal),
  });

/**
 * GET /imports/progress?key=, polled while a commit sent with that key runs: the command process
 * running it answers from its memory (records done of the total), with no session and no query.
 */
export const importProgressQuery = (key: string | null) =>
  queryOptions({
    queryKey: ['settings', 'imports', 'progress', key],
    queryFn: ({ signal }) => api.get<ImportProgress>('/imports/progress', { key: key ?? '' }, signal),
    enabled: key !== null,
    refetchInterval: key !== null ? 400 : false,
    retry: false,
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
    onSuccess: (preview) => {
      client.setQueryData(importQuery(preview.id).queryKey, preview);
      // The past imports list every upload: this one joins it at once.
      void client.invalidateQueries({ queryKey: ['settings', 'imports', 'list'] });
    },
  });
}

export function useCommitImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, progressKey }: { id: string; progressKey: string }) =>
      request<ImportCommitAnswer>('POST', `/imports/${id}/commit`, {
        body: {},
        headers: { [IMPORT_PROGRESS_HEADER]: progressKey },
      }),
    // The import itself and every list the new records appear in.
    onSettled: () => client.invalidateQueries(),
  });
}

export function useUndoImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<ImportUndoAnswer>(`/imports/${id}/undo`),
    // The import, the history and every list its records were in.
    onSettled: () => client.invalidateQueries(),
  });
}

/**
 * A random key for a commit's progress (the poll's only credential): a version 4 UUID from
 * getRandomValues, which, unlike randomUUID, a page served over plain http on the LAN has too.
 */
export function newProgressKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The template of a kind, saved as the browser's download. */
export async function downloadTemplate(kind: ImportKind, format: 'xlsx' | 'csv'): Promise<void> {
  const answer = await download(`/imports/templates/${kind}.${format}`);
  if (answer.blob) saveFile(answer.blob, answer.fileName ?? `bahi-${kind}-template.${format}`);
}

/**
 * The one API client of every frontend (spec section 7): base /api, JSON, the Bearer token
 * from local storage, and X-Bahi-Position carrying the last position this browser wrote, so a
 * read after a save sees the save (read your writes).
 */
export const API_BASE = '/api';
export const TOKEN_KEY = 'bahi.token';
export const USER_KEY = 'bahi.user';
export const POSITION_HEADER = 'X-Bahi-Position';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** A write whose answer was lost on the way is sent once more, after this long, with the same key. */
export const WRITE_RETRY_MS = 500;

/** The error body the server sends for 4xx (spec section 8). */
export interface ErrorBody {
  message?: unknown;
  errors?: { msg?: unknown; path?: unknown }[];
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    // No text of our own: errorText falls back to the caller's fallback text instead.
    super('');
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

let lastPosition: bigint | undefined;
const unauthorizedListeners = new Set<() => void>();

export const getToken = (): string | null => globalThis.localStorage?.getItem(TOKEN_KEY) ?? null;
export function setToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** Called when a request that carried a token is answered 401: the session is over. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** The last position this client wrote (or was told to wait for), as sent in X-Bahi-Position. */
export const lastWrittenPosition = (): string | undefined => lastPosition?.toString();

export function notePosition(position: unknown): void {
  if (typeof position !== 'string' && typeof position !== 'number') return;
  if (!/^\d{1,19}$/.test(String(position))) return;
  const p = BigInt(position);
  if (lastPosition === undefined || p > lastPosition) lastPosition = p;
}

/** Query string of the non-empty values (empty filters are left out, spec section 7). */
export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export async function request<T>(
  method: string,
  path: string,
  options: { body?: unknown; query?: Query; signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<T> {
  const token = getToken();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (lastPosition !== undefined) headers[POSITION_HEADER] = lastPosition.toString();
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, options.headers);
  // Every write carries a key of its own: if the answer is lost (the connection dropped after the
  // server wrote), the one retry below is recognised and answered with the first answer, so a
  // save is never recorded twice (issue #16).
  const write = method !== 'GET' && method !== 'HEAD';
  if (write) headers[IDEMPOTENCY_HEADER] = newKey();
  const init: RequestInit = { method, headers };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  if (options.signal) init.signal = options.signal;
  const url = `${API_BASE}${path}${queryString(options.query)}`;
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (error) {
    if (!write || options.signal?.aborted) throw error;
    await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_MS));
    res = await fetch(url, init);
  }
  const type = res.headers.get('content-type') ?? '';
  const body: unknown = type.includes('json') ? await res.json().catch(() => undefined) : undefined;
  if (!res.ok) {
    if (res.status === 401 && token) for (const listener of unauthorizedListeners) listener();
    throw new ApiError(res.status, body);
  }
  if (method !== 'GET' && body && typeof body === 'object' && 'position' in body) {
    notePosition((body as { position: unknown }).position);
  }
  notePosition(res.headers.get(POSITION_HEADER));
  return body as T;
}

const newKey = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) =>
    request<T>('GET', path, { ...(query ? { query } : {}), ...(signal ? { signal } : {}) }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** What `download` got: the file (200), or the server's word that it is not ready yet (202). */
export interface DownloadAnswer {
  status: number;
  /** The file, when the server sent one. */
  blob?: Blob;
  /** From Content-Disposition: `filename*` (exact, UTF-8) first, else `filename`. */
  fileName?: string;
  /** A JSON answer instead of a file (202 `{message, jobId, link}`). */
  body?: unknown;
}

/** The file name a Content-Disposition header gives: `filename*` first, then `filename`. */
export function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*\s*=\s*([^;]+)/i.exec(disposition);
  if (star) {
    const value = star[1]!.trim().replace(/^"(.*)"$/, '$1');
    const encoded = value.replace(/^[\w-]+'[\w-]*'/, '');
    try {
      const name = decodeURIComponent(encoded);
      if (name) return name;
    } catch {
      // A badly encoded filename*: the plain filename below.
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(disposition);
  if (!plain) return undefined;
  const name = (plain[2] ?? plain[1]!).replace(/\\(.)/g, '$1').trim();
  return name || undefined;
}

/**
 * A file from the API (a report's PDF or Excel) with the Bearer token and the read position:
 * the blob and its file name, or a JSON answer that is not a file (202 while a big report is
 * still rendering). A failure throws ApiError as `request` does (errorText reads it).
 */
export async function download(path: string, query?: Query, signal?: AbortSignal): Promise<DownloadAnswer> {
  const token = getToken();
  const headers: Record<string, string> = { accept: '*/*' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (lastPosition !== undefined) headers[POSITION_HEADER] = lastPosition.toString();
  const init: RequestInit = { method: 'GET', headers };
  if (signal) init.signal = signal;
  // A link the server gave (`/api/reports/files/...`) is taken as it is.
  const url = `${path.startsWith(`${API_BASE}/`) ? '' : API_BASE}${path}${queryString(query)}`;
  const res = await fetch(url, init);
  const type = res.headers.get('content-type') ?? '';
  const json = type.includes('json');
  if (!res.ok) {
    const body: unknown = json ? await res.json().catch(() => undefined) : undefined;
    if (res.status === 401 && token) for (const listener of unauthorizedListeners) listener();
    throw new ApiError(res.status, body);
  }
  if (res.status !== 200 || json) {
    return { status: res.status, body: json ? await res.json().catch(() => undefined) : undefined };
  }
  const answer: DownloadAnswer = { status: res.status, blob: await res.blob() };
  const fileName = fileNameOf(res.headers.get('content-disposition'));
  if (fileName) answer.fileName = fileName;
  return answer;
}

export const UNKNOWN_ERROR = 'An unknown error occurred.';

/** fetch's failure to reach the server at all (no answer), in any browser's words. */
export const isNetworkFailure = (error: unknown): boolean =>
  error instanceof TypeError && /fetch|network|load failed/i.test(error.message);

/**
 * The text an error alert shows (spec section 8): the server's message; otherwise the joined
 * msg values of its errors list; otherwise the client error's own message, but for a network
 * failure (no answer at all) the screen's fallback text; last 'An unknown error occurred.'
 */
export function errorText(error: unknown, fallback: string = UNKNOWN_ERROR): string {
  if (error instanceof ApiError) {
    const body = (error.body ?? {}) as ErrorBody;
    if (typeof body.message === 'string' && body.message.trim()) return body.message;
    if (Array.isArray(body.errors)) {
      const msgs = body.errors.map((e) => e?.msg).filter((m): m is string => typeof m === 'string' && !!m);
      if (msgs.length) return msgs.join(', ');
    }
  }
  // A request that never reached the server: the browser's own words ('Failed to fetch',
  // 'NetworkError when attempting to fetch resource.', 'Load failed') say nothing to staff; the
  // screen's fallback text does (issue #18).
  if (isNetworkFailure(error)) return fallback || UNKNOWN_ERROR;
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return fallback || UNKNOWN_ERROR;
}

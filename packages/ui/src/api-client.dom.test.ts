import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  api,
  download,
  errorText,
  fileNameOf,
  lastWrittenPosition,
  setToken,
  UNKNOWN_ERROR,
} from './api-client.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('errorText (spec section 8)', () => {
  it('shows the server message first', () => {
    const e = new ApiError(409, { message: 'Not enough stock.', errors: [{ msg: 'ignored', path: 'x' }] });
    expect(errorText(e, 'Failed to fetch items.')).toBe('Not enough stock.');
  });
  it('otherwise joins the msg values of the errors list', () => {
    const e = new ApiError(400, {
      errors: [{ msg: 'Name is required', path: 'name' }, { msg: 'Rate must be positive' }],
    });
    expect(errorText(e, 'An unexpected error occurred.')).toBe('Name is required, Rate must be positive');
  });
  it('otherwise the client error message, but a network failure gets the fallback, not the browser’s words', () => {
    expect(errorText(new TypeError('Failed to fetch'), 'Failed to fetch users.')).toBe(
      'Failed to fetch users.',
    );
    expect(
      errorText(
        new TypeError('NetworkError when attempting to fetch resource.'),
        'Failed to load dashboard data.',
      ),
    ).toBe('Failed to load dashboard data.');
    expect(errorText(new TypeError('Load failed'))).toBe('An unknown error occurred.');
    expect(errorText(new Error('The report is too large.'), 'Failed to fetch users.')).toBe(
      'The report is too large.',
    );
  });
  it('otherwise the screen fallback, and last the unknown-error text', () => {
    expect(errorText(new ApiError(500, undefined), 'Failed to fetch users.')).toBe('Failed to fetch users.');
    expect(errorText(new ApiError(500, { message: '  ', errors: [] }), 'Failed to delete user.')).toBe(
      'Failed to delete user.',
    );
    expect(errorText(undefined)).toBe(UNKNOWN_ERROR);
    expect(UNKNOWN_ERROR).toBe('An unknown error occurred.');
  });
});

describe('request', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    localStorage.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('calls /api with the Bearer token, leaves out empty query values, and throws ApiError', async () => {
    setToken('tok-1');
    fetchMock.mockResolvedValueOnce(json(403, { message: 'Your role (Viewer) cannot see users.' }));
    const failure = await api.get('/masters/users', { page: 2, limit: 15, search: '' }).catch((e) => e);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/masters/users?page=2&limit=15');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok-1');
    expect(failure).toBeInstanceOf(ApiError);
    expect(errorText(failure, 'Failed to fetch users.')).toBe('Your role (Viewer) cannot see users.');
  });

  it('sends the last written position on later calls, never going backwards', async () => {
    fetchMock.mockResolvedValueOnce(json(201, { id: 'a', position: '42' }));
    await api.post('/masters/cities', { name: 'Pune' });
    expect(lastWrittenPosition()).toBe('42');
    fetchMock.mockResolvedValueOnce(json(200, { id: 'b', position: '7' }));
    await api.put('/masters/cities/b', { name: 'Goa' });
    fetchMock.mockResolvedValueOnce(json(200, { data: [], totalItems: 0 }));
    await api.get('/masters/cities');
    const headers = fetchMock.mock.calls[2]?.[1]?.headers as Record<string, string>;
    expect(headers['X-Bahi-Position']).toBe('42');
  });

  it('gives every write its own Idempotency-Key and sends a write whose answer was lost once more with it', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    fetchMock.mockResolvedValueOnce(json(201, { id: 'c', position: '50' }));
    await api.post('/masters/cities', { name: 'Surat' });
    const [first, second] = fetchMock.mock.calls.map(
      (c) => (c[1]?.headers as Record<string, string>)['Idempotency-Key'],
    );
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    fetchMock.mockResolvedValueOnce(json(201, { id: 'd', position: '51' }));
    await api.post('/masters/cities', { name: 'Vapi' });
    expect((fetchMock.mock.calls[2]?.[1]?.headers as Record<string, string>)['Idempotency-Key']).not.toBe(
      first,
    );
    // Reads are never retried here and carry no key.
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(api.get('/masters/cities')).rejects.toThrow('Failed to fetch');
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(
      (fetchMock.mock.calls[3]?.[1]?.headers as Record<string, string>)['Idempotency-Key'],
    ).toBeUndefined();
  });
});

describe('download (report files)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    localStorage.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads the file name from Content-Disposition, filename* first', () => {
    expect(fileNameOf(`attachment; filename="a_.pdf"; filename*=UTF-8''%E0%A4%97%20b.pdf`)).toBe('ग b.pdf');
    expect(fileNameOf('attachment; filename="stock report.xlsx"')).toBe('stock report.xlsx');
    expect(fileNameOf('attachment; filename=plain.pdf')).toBe('plain.pdf');
    expect(fileNameOf(`attachment; filename="ok.pdf"; filename*=UTF-8''%E0%A4`)).toBe('ok.pdf');
    expect(fileNameOf('attachment')).toBeUndefined();
    expect(fileNameOf(null)).toBeUndefined();
  });

  it('fetches a file with the token and gives its blob and name; 202 gives the JSON; a failure throws', async () => {
    setToken('tok-2');
    fetchMock.mockResolvedValueOnce(
      new Response('%PDF', {
        headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="s.pdf"' },
      }),
    );
    const file = await download('/reports/stock/download/pdf', { asOf: '2026-11-20', city_id: '' });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/reports/stock/download/pdf?asOf=2026-11-20');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok-2');
    expect(file.status).toBe(200);
    expect(file.fileName).toBe('s.pdf');
    expect(await file.blob?.text()).toBe('%PDF');
    fetchMock.mockResolvedValueOnce(
      json(202, { message: 'later', jobId: 'j', link: '/api/reports/files/j' }),
    );
    expect(await download('/reports/stock/download/xlsx')).toEqual({
      status: 202,
      body: { message: 'later', jobId: 'j', link: '/api/reports/files/j' },
    });
    // A link the server gave is used as it is, not under /api twice.
    fetchMock.mockResolvedValueOnce(json(404, { message: 'That report file is not available.' }));
    const failure = await download('/api/reports/files/j').catch((e) => e);
    expect(fetchMock.mock.calls[2]?.[0]).toBe('/api/reports/files/j');
    expect(failure).toBeInstanceOf(ApiError);
    expect(errorText(failure, 'Failed to download pdf report.')).toBe('That report file is not available.');
  });
});

// Test helpers for screens in happy-dom ('@bahi/ui/testing'; only tests import this).
import { FluentProvider, webDarkTheme } from '@fluentui/react-components';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { City, Party } from './screen/parties.ts';
import { createQueryClient, ScreenProviders } from './screen/query-client.tsx';
import { type LicenseInfo, type Session, SessionContext, type User } from './session.ts';
import { SnackbarProvider } from './snackbar.tsx';

export const ADMIN: User = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Asha Admin',
  email: 'asha@bahi.test',
  phone: null,
  role: 'Admin',
  is_active: true,
};

export const VALID_LICENSE: LicenseInfo = {
  isValid: true,
  reason: null,
  config: {
    status: 'Active',
    type: 'Standard',
    expires_at: '2099-01-01T00:00:00.000Z',
    grace_period_days: 7,
    expiry_notification_days: 15,
  },
};

export function fakeSession(over: Partial<Session> = {}): Session {
  return {
    status: 'signed-in',
    user: ADMIN,
    license: VALID_LICENSE,
    login: async () => {},
    logout: () => {},
    retryLicense: async () => {},
    revalidate: async () => {},
    ...over,
  };
}

/** Shows where the router ended up, for redirect assertions. */
export function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

/** A screen inside Fluent, a router at `path`, a session and a fresh query cache. */
/** A history entry with location state, as a link that passes some makes. */
function entry(path: string, state: unknown) {
  const url = new URL(path, 'http://bahi.test');
  return { pathname: url.pathname, search: url.search, state };
}

export function renderScreen(
  path: string,
  ui: ReactNode,
  options: { session?: Session; route?: string; state?: unknown } = {},
) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, staleTime: 0 } });
  const result = render(
    <FluentProvider theme={webDarkTheme}>
      <SnackbarProvider>
        <SessionContext.Provider value={options.session ?? fakeSession()}>
          <ScreenProviders client={client}>
            <MemoryRouter initialEntries={[options.state === undefined ? path : entry(path, options.state)]}>
              <Routes>
                <Route path={options.route ?? '*'} element={ui} />
              </Routes>
              <Routes>
                <Route path="*" element={<Where />} />
              </Routes>
            </MemoryRouter>
          </ScreenProviders>
        </SessionContext.Provider>
      </SnackbarProvider>
    </FluentProvider>,
  );
  return { ...result, client };
}

export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** A preview's dry run (X-Bahi-Dry-Run): kept apart in `previews`, never in `calls`. */
  dryRun: boolean;
}
export type ApiReply =
  | {
      status?: number;
      body?: unknown;
      /** A file instead of JSON (a report's download): sent as it is, with `headers`. */
      file?: Blob | string;
      headers?: Record<string, string>;
    }
  | undefined;

/**
 * Answers the screen's /api calls in a component test: `handler` sees each call and returns
 * the status and body (404 when it returns nothing). Every call is kept in `calls`.
 */
export function mockApi(handler: (call: ApiCall) => ApiReply | Promise<ApiReply>) {
  const calls: ApiCall[] = [];
  const previews: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://bahi.test');
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const call: ApiCall = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      dryRun: headers['X-Bahi-Dry-Run'] === 'true',
    };
    (call.dryRun ? previews : calls).push(call);
    const reply = (await handler(call)) ?? {
      status: 404,
      body: { message: `No mock for ${call.method} ${call.path}` },
    };
    if (reply.file !== undefined) {
      return new Response(reply.file, { status: reply.status ?? 200, headers: reply.headers ?? {} });
    }
    return new Response(JSON.stringify(reply.body ?? {}), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, previews, fetch: fetchMock };
}

/** A city as GET /masters/cities answers it, the `n`th of a test: id c0000000-0000-4000-8000-00000000000n. */
export const testCity = (n: number, name: string, currency_name: string, rate: string): City => ({
  id: `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name,
  currency_name,
  rate,
});

let parties = 0;
/**
 * A party as GET /masters/{kind} (or GET /reports/balances) answers it: 'Party n' of `city`
 * (null for a godown), nothing owed, unless `over` says otherwise. Ids a0000000-…, one a call.
 */
export function testParty(
  city: Pick<City, 'id' | 'name' | 'currency_name'> | null,
  over: Partial<Party> = {},
): Party {
  parties += 1;
  return {
    id: `a0000000-0000-4000-8000-${String(parties).padStart(12, '0')}`,
    name: `Party ${parties}`,
    city_id: city?.id ?? null,
    city: city ? { id: city.id, name: city.name, currency_name: city.currency_name } : null,
    joining_date: null,
    address: null,
    narration: null,
    phone: null,
    opening_balance: '0.00',
    balance: { amount: '0.00' },
    ...over,
  };
}

/** A list's reply to mockApi: `{ body: { data, totalItems } }`. */
export const pageReply = <T,>(data: T[]) => ({ body: { data, totalItems: data.length } });

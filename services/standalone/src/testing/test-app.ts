import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openServerStorage } from '@bahi/server-kit';
import { withTestDatabase } from '../../../../test/postgres.ts';
import { type Standalone, startStandalone } from '../standalone.ts';

export type TestStorage = 'pglite' | 'postgres';

/** Where the read-side tests run: PGlite always, and a real Postgres when DATABASE_URL is set. */
export const TEST_STORAGES: TestStorage[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
if (!process.env.DATABASE_URL)
  console.warn('standalone tests: DATABASE_URL is not set; Postgres runs skipped');

// biome-ignore lint/suspicious/noExplicitAny: tests check answers field by field
export type Body = any;

export interface TestApp {
  bahi: Standalone;
  dir: string;
  /** The first Admin's token. */
  token: string;
  login(email: string, password: string): Promise<string>;
  /**
   * An API call as the UI's client makes it: the Bearer token, and X-Bahi-Position of the
   * last write so reads see it.
   */
  call(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Body }>;
  /** Later reads wait for everything written so far, not only this client's own writes. */
  syncToHead(): Promise<void>;
  /**
   * Stops the app (as on SIGTERM: open streams end first) and starts it again on the same data
   * directory, storage and port, as a server restart does: sessions stay valid (the secrets are
   * the data directory's).
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The standalone app on a fresh temporary data directory, signed in as its first Admin. */
export async function openTestApp(
  options: {
    env?: (dir: string) => Record<string, string>;
    prepare?: (dir: string) => Promise<void>;
    /** `postgres`: the app on a fresh database of the server DATABASE_URL names, not PGlite. */
    storage?: TestStorage;
    /** The app on this Postgres database, kept as it is (a benchmark's seeded books). */
    databaseUrl?: string;
    /** Report jobs on BullMQ over this Redis (startStandalone's reportsRedis). */
    reportsRedis?: { url: string; prefix: string };
  } = {},
): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'bahi-test-'));
  await options.prepare?.(dir);
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => {} }
    : options.storage === 'postgres'
      ? await withTestDatabase('app')
      : undefined;
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    BAHI_DATA_DIR: join(dir, 'data'),
    BAHI_FRONTENDS_DIR: join(dir, 'none'),
    ...options.env?.(dir),
  };
  const start = (port: string) =>
    startStandalone(
      { ...env, PORT: port },
      {
        logger: false,
        ...(options.reportsRedis ? { reportsRedis: options.reportsRedis } : {}),
        ...(database
          ? {
              storage: () =>
                openServerStorage({
                  databaseUrl: database.url,
                  applicationName: 'bahi-test',
                  pollIntervalMs: 50,
                  // As the query service reads on Postgres.
                  namedReads: true,
                }),
            }
          : {}),
      },
    );
  let bahi = await start(env.PORT ?? '0').catch(async (error) => {
    await database?.drop();
    throw error;
  });
  const login = async (email: string, password: string) => {
    const res = await fetch(`${bahi.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { token: string }).token;
  };
  const token = await login(bahi.config.BAHI_ADMIN_EMAIL, bahi.config.BAHI_ADMIN_PASSWORD);
  let last = '0';
  return {
    get bahi() {
      return bahi;
    },
    dir,
    token,
    login,
    async call(method, path, body, as = token) {
      const res = await fetch(`${bahi.url}/api${path}`, {
        method,
        headers: {
          authorization: `Bearer ${as}`,
          'x-bahi-position': last,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as Body;
      if (method !== 'GET' && res.status < 300 && json?.position) last = json.position;
      return { status: res.status, body: json };
    },
    async syncToHead() {
      // Reads after this wait for the head; a busy machine (CI runs four files at once on one
      // Postgres) can keep a projection more than the reads' bounded 2 s behind, so this waits
      // (up to 30 s) until every projection has reached the head too.
      const ready = async () =>
        (await (await fetch(`${bahi.url}/api/ready`)).json()) as {
          eventStore: { headPosition: string };
          projections: Array<{ position: string }>;
        };
      const head = BigInt((await ready()).eventStore.headPosition);
      last = head.toString();
      for (const until = Date.now() + 30_000; Date.now() < until; ) {
        if ((await ready()).projections.every((p) => BigInt(p.position) >= head)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async restart() {
      const port = new URL(bahi.url).port;
      await bahi.stop();
      bahi = await start(port);
    },
    async close() {
      await bahi.stop();
      await database?.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

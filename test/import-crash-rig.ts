// The processes an import crash test kills and starts again (issue #31): a fresh Postgres
// database, a license, the projector (kept running throughout, as in the distributed
// deployment) and the command service, started by `up()` as often as the test restarts it; and
// the kill itself, once the commit's transaction is open and appending. Test code only.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { call, json } from './http.ts';
import { writeTestLicense } from './license.ts';
import { withTestDatabase } from './postgres.ts';
import { freePort, type Proc, run, waitFor } from './processes.ts';

const root = resolve(import.meta.dirname, '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };
const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';

export interface CrashRig {
  db: { name: string; url: string };
  client: pg.Client;
  /** Starts the command service (again), and signs in: its port and an Admin's token. */
  up(): Promise<{ port: number; token: string }>;
  /** Sends the commit, kills the service (SIGKILL) inside its transaction, waits for Postgres to roll it back. */
  killDuringCommit(port: number, token: string, importId: string): Promise<void>;
  close(): Promise<void>;
}

export async function openCrashRig(): Promise<CrashRig> {
  const cleanup: Array<() => Promise<void>> = [];
  let running: Proc | undefined;
  let projector: Proc | undefined;
  const db = await withTestDatabase('import');
  const dir = await mkdtemp(join(tmpdir(), 'bahi-import-crash-'));
  cleanup.push(db.drop, () => rm(dir, { recursive: true, force: true }));
  await writeTestLicense(dir);
  const license = {
    BAHI_JWT_SECRET: SECRET,
    BAHI_LICENSE_FILE: join(dir, 'license.jws'),
    BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
    LOG_LEVEL: 'warn',
  };
  projector = run(
    tsx,
    ['services/projector/src/main.ts'],
    {
      DATABASE_URL: db.url,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      BAHI_SUBSCRIPTION_POLL_MS: '200',
      ...license,
    },
    root,
  );
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  cleanup.unshift(() => client.end());
  const backends = async (where: string) =>
    (
      await client.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND xact_start IS NOT NULL AND pid <> pg_backend_pid() ${where}`,
        [db.name],
      )
    ).rows.length;

  return {
    db,
    client,
    async up() {
      const port = await freePort();
      running = run(
        tsx,
        ['services/command/src/main.ts'],
        {
          DATABASE_URL: db.url,
          PORT: String(port),
          HOST: '127.0.0.1',
          BAHI_ADMIN_EMAIL: ADMIN.email,
          BAHI_ADMIN_PASSWORD: ADMIN.password,
          ...license,
        },
        root,
      );
      const proc = running;
      await waitFor(
        'the command service',
        async () => ((await call(port, 'GET', '/api/health')).status === 200 ? true : undefined),
        60_000,
      ).catch((error) => {
        throw new Error(`${(error as Error).message}\n${proc.output().slice(-3000)}`);
      });
      const login = await call(port, 'POST', '/api/auth/login', { body: ADMIN });
      return { port, token: json(login).token as string };
    },
    async killDuringCommit(port, token, importId) {
      // The commit, not awaited: killed once its transaction is open and appending.
      void call(port, 'POST', `/api/imports/${importId}/commit`, { token }).catch(() => undefined);
      await waitFor(
        'the commit inside its transaction',
        async () =>
          (await backends("AND state IN ('active', 'idle in transaction') AND query LIKE '%es.append%'")) > 0
            ? true
            : undefined,
        30_000,
      );
      running!.signal('SIGKILL');
      await running!.groupGone();
      // Postgres rolls back a transaction whose client died: wait until its backend is gone.
      await waitFor(
        'the killed backend to end',
        async () => ((await backends('')) === 0 ? true : undefined),
        30_000,
      );
    },
    async close() {
      for (const proc of [running, projector]) {
        proc?.signal('SIGKILL');
        await proc?.groupGone().catch(() => {});
      }
      for (const c of cleanup) await c();
    },
  };
}

// Issue #31: an import's commit is all rows or none. The command service, on Postgres, is killed
// (SIGKILL) while it is inside the commit's transaction, appending a 5,000-row file; after a
// restart the log holds none of the file's events (or, had the commit finished first, all of
// them), never a part; committing it again then records every row once.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateLicenseKeys, issueLicense } from '@bahi/server-kit';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { call, json } from '../../../../test/http.ts';
import { withTestDatabase } from '../../../../test/postgres.ts';
import { freePort, type Proc, run, waitFor } from '../../../../test/processes.ts';

const root = resolve(import.meta.dirname, '../../../..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };
const ROWS = 5_000;

describe.skipIf(!process.env.DATABASE_URL)('an import killed during its commit', () => {
  let running: Proc | undefined;
  let projector: Proc | undefined;
  let cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const proc of [running, projector]) {
      proc?.signal('SIGKILL');
      await proc?.groupGone().catch(() => {});
    }
    for (const c of cleanup) await c();
    cleanup = [];
  });

  it('leaves all rows or none, and the file can be committed once after the restart', async () => {
    const db = await withTestDatabase('import');
    const dir = await mkdtemp(join(tmpdir(), 'bahi-import-crash-'));
    cleanup.push(db.drop, () => rm(dir, { recursive: true, force: true }));
    const keys = await generateLicenseKeys();
    await writeFile(join(dir, 'public.pem'), keys.publicKeyPem);
    await writeFile(
      join(dir, 'license.jws'),
      await issueLicense(keys.privateKeyPem, {
        status: 'Active',
        type: 'Standard',
        expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        grace_period_days: 7,
        expiry_notification_days: 15,
      }),
    );
    // The projector beside it: the preview reads the cities' read model, as in the distributed
    // deployment. It keeps running while the command service is killed and started again.
    const projectorPort = await freePort();
    projector = run(
      tsx,
      ['services/projector/src/main.ts'],
      {
        DATABASE_URL: db.url,
        PORT: String(projectorPort),
        HOST: '127.0.0.1',
        BAHI_SUBSCRIPTION_POLL_MS: '200',
        BAHI_JWT_SECRET: 'a-test-secret-that-is-long-enough-for-hs256',
        BAHI_LICENSE_FILE: join(dir, 'license.jws'),
        BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
        LOG_LEVEL: 'warn',
      },
      root,
    );
    const up = async () => {
      const port = await freePort();
      running = run(
        tsx,
        ['services/command/src/main.ts'],
        {
          DATABASE_URL: db.url,
          PORT: String(port),
          HOST: '127.0.0.1',
          BAHI_JWT_SECRET: 'a-test-secret-that-is-long-enough-for-hs256',
          BAHI_ADMIN_EMAIL: ADMIN.email,
          BAHI_ADMIN_PASSWORD: ADMIN.password,
          BAHI_LICENSE_FILE: join(dir, 'license.jws'),
          BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
          LOG_LEVEL: 'warn',
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
    };
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    cleanup.unshift(() => client.end());
    const imported = async () =>
      Number(
        (
          await client.query<{ n: string }>(
            "SELECT count(*)::text AS n FROM es.events WHERE type = 'FunderCreated' AND metadata->>'importId' IS NOT NULL",
          )
        ).rows[0]!.n,
      );

    let { port, token } = await up();
    const city = await call(port, 'POST', '/api/masters/cities', {
      token,
      body: { name: 'Kabul', currency_name: 'AFN', rate: '1.25' },
    });
    expect(city.status).toBe(201);
    const csv = `Name,City,Opening Balance\n${Array.from({ length: ROWS }, (_, i) => `Funder ${i + 1},Kabul,${i + 1}`).join('\n')}\n`;
    const upload = await fetch(`http://127.0.0.1:${port}/api/imports?kind=funders&file_name=funders.csv`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csv,
    });
    expect(upload.status).toBe(201);
    const preview = (await upload.json()) as { id: string; status: string };
    expect(preview.status).toBe('valid');

    // The commit, not awaited: killed once its transaction is open and appending.
    void call(port, 'POST', `/api/imports/${preview.id}/commit`, { token }).catch(() => undefined);
    await waitFor(
      'the commit inside its transaction',
      async () => {
        const { rows } = await client.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND xact_start IS NOT NULL
              AND state IN ('active', 'idle in transaction') AND query LIKE '%es.append%' AND pid <> pg_backend_pid()`,
          [db.name],
        );
        return rows.length > 0 ? true : undefined;
      },
      30_000,
    );
    running!.signal('SIGKILL');
    await running!.groupGone();
    // Postgres rolls back a transaction whose client died: wait until its backend is gone.
    await waitFor(
      'the killed backend to end',
      async () => {
        const { rows } = await client.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`,
          [db.name],
        );
        return rows.length === 0 ? true : undefined;
      },
      30_000,
    );
    const afterKill = await imported();
    expect([0, ROWS]).toContain(afterKill);
    const marker = Number(
      (
        await client.query<{ n: string }>(
          "SELECT count(*)::text AS n FROM es.events WHERE type = 'ImportCommitted'",
        )
      ).rows[0]!.n,
    );
    expect(marker).toBe(afterKill === 0 ? 0 : 1);

    ({ port, token } = await up());
    const again = await call(port, 'POST', `/api/imports/${preview.id}/commit`, { token });
    if (afterKill === 0) {
      expect(again.status, again.body).toBe(200);
      expect(json(again)).toMatchObject({ records: ROWS, events: ROWS + 1 });
    } else {
      expect(again.status).toBe(409);
    }
    expect(await imported()).toBe(ROWS);
    const twice = await call(port, 'POST', `/api/imports/${preview.id}/commit`, { token });
    expect(twice.status).toBe(409);
    expect(await imported()).toBe(ROWS);
  }, 240_000);
});

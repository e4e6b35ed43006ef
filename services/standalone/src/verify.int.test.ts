import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { checkChainHead } from '@bahi/event-store';
import { sqlClientOf } from '@bahi/read-db';
import type { SqlClient } from '@bahi/sql-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileVerification } from '../../reports-worker/src/render/verification.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');

/**
 * Issue #30, the tamper test: one byte of one event's data changed directly in the database
 * (PGlite and Postgres). GET /api/admin/verify names that position; a report file read before
 * the change at a position below it still verifies against the log, one read at or after the
 * changed event (before or after the change) does not; a backup taken after the change carries
 * a chain head that differs from the seal's.
 */
describe.each(TEST_STORAGES)('verifying the books [%s]', (storage) => {
  let t: TestApp;
  let sql: SqlClient;
  const ids: Record<string, string> = {};
  const files: Record<string, string> = {};
  let tampered = '';
  const call = (method: string, path: string, body?: unknown, token?: string) =>
    t.call(method, path, body, token);

  /** A ledger file as a person downloads it, saved; its verification as the file says it. */
  async function download(name: string, format: 'pdf' | 'xlsx') {
    const res = await fetch(
      `${t.bahi.url}/api/reports/ledger/Funder/${ids.funder}/download/${format}?startDate=2026-11-01&endDate=2026-11-30`,
      { headers: { authorization: `Bearer ${t.token}` } },
    );
    expect(res.status).toBe(200);
    const path = join(t.dir, `${name}.${format}`);
    await writeFile(path, Buffer.from(await res.arrayBuffer()));
    files[name] = path;
    const found = await readFileVerification(path);
    expect(found?.position).toBe(res.headers.get('x-bahi-position'));
    expect(found?.chainHead).toMatch(/^[0-9a-f]{64}$/);
    return found!;
  }

  const purchase = async (date: string, quantity: number) => {
    const r = await call('POST', '/transactions/purchases', {
      type: 'Godown',
      purchase_date: date,
      city_id: ids.city,
      funder_id: ids.funder,
      product_id: ids.product,
      godown_id: ids.godown,
      rate: 100.1,
      quantity,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.position as string;
  };

  beforeAll(async () => {
    t = await openTestApp({ storage });
    sql = sqlClientOf(t.bahi.readDb)!;
    const mk = async (kind: string, body: unknown) =>
      (await call('POST', `/masters/${kind}`, body)).body.id as string;
    ids.city = await mk('cities', { name: 'Surat', currency_name: 'INR', rate: 1 });
    ids.funder = await mk('funders', { name: 'Bhavesh', city_id: ids.city, opening_balance: 1000 });
    ids.godown = await mk('godowns', { name: 'Main' });
    ids.product = await mk('products', { name: 'Cumin' });
    await purchase('2026-11-02', 10);
    await t.syncToHead();
  }, 120_000);
  afterAll(() => t?.close());

  it('verifies intact, then names the one byte changed in the database; reports and backups tell before from after', async () => {
    const before = await download('before', 'pdf');
    const victimPosition = await purchase('2026-11-05', 3);
    await purchase('2026-11-06', 4);
    await t.syncToHead();
    const straddling = await download('straddling', 'xlsx'); // read before the change, over the changed event

    const intact = await call('GET', '/admin/verify');
    expect(intact.status).toBe(200);
    expect(intact.body).toMatchObject({ status: 'intact', unsealed: 0 });
    expect(intact.body.intactUpTo).toBe(intact.body.head);
    expect(intact.body.summary).toContain(`intact up to position ${intact.body.head}`);
    // The progress route says how far the last one got: all of it.
    expect((await call('GET', '/admin/verify/progress')).body).toEqual({
      running: false,
      checked: intact.body.checked,
      total: intact.body.total,
    });

    // One byte of one event's data, changed directly in the database.
    const { rows } = await sql.query<{ text: string }>(
      'SELECT data::text AS text FROM es.events WHERE global_position = $1::bigint',
      [victimPosition],
    );
    const text = rows[0]!.text;
    const at = text.indexOf('"rate"') + text.slice(text.indexOf('"rate"')).search(/\d/);
    const changed = `${text.slice(0, at)}${text[at] === '9' ? '8' : '9'}${text.slice(at + 1)}`;
    expect(changed.length).toBe(text.length);
    await sql.query('UPDATE es.events SET data = $1::jsonb WHERE global_position = $2::bigint', [
      changed,
      victimPosition,
    ]);
    tampered = victimPosition;

    const after = await download('after', 'pdf');
    const broken = await call('GET', '/admin/verify');
    expect(broken.status).toBe(200);
    expect(broken.body.status).toBe('broken');
    expect(broken.body.broken).toMatchObject({ position: victimPosition, reason: 'altered' });
    expect(broken.body.broken.stored).not.toBe(broken.body.broken.recomputed);
    expect(BigInt(broken.body.intactUpTo)).toBeLessThan(BigInt(victimPosition));
    expect(broken.body.summary).toContain(`nothing from position ${victimPosition} on can be trusted`);

    // The report read before, below the changed event, verifies; those over it do not, and the
    // seal says the log was altered (not that the file is from elsewhere).
    expect(BigInt(before.position)).toBeLessThan(BigInt(victimPosition));
    expect(await checkChainHead(sql, BigInt(before.position), before.chainHead!)).toMatchObject({
      verifies: true,
    });
    for (const file of [straddling, after]) {
      expect(BigInt(file.position)).toBeGreaterThanOrEqual(BigInt(victimPosition));
      expect(await checkChainHead(sql, BigInt(file.position), file.chainHead!)).toMatchObject({
        verifies: false,
        why: 'log-altered',
      });
    }

    if (storage === 'pglite') {
      // The standalone's backup after the change: its chain is the altered log's, the seal's is not.
      const backup = await call('POST', '/admin/backups');
      expect(backup.status).toBe(201);
      expect(backup.body.sealedChainHead).toMatch(/^[0-9a-f]{64}$/);
      expect(backup.body.sealedChainHead).not.toBe(backup.body.chainHead);
      files.backup = join(t.dir, 'data', 'backups', backup.body.file);
    }
  });

  it('is for Admins only', async () => {
    const made = await call('POST', '/masters/users', {
      name: 'Vera',
      email: `vera-${storage}@example.com`,
      password: 'a-long-password-1',
      role: 'Viewer',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const token = await t.login(`vera-${storage}@example.com`, 'a-long-password-1');
    const refused = await call('GET', '/admin/verify', undefined, token);
    expect(refused.status).toBe(403);
    expect((refused.body as Body).message).toBe('Your role (Viewer) cannot verify the books.');
    expect((await call('GET', '/admin/verify/progress', undefined, token)).status).toBe(403);
  });

  it.runIf(storage === 'pglite')(
    'npm run verify says the same on the data directory, and checks report files',
    async () => {
      expect(tampered).not.toBe('');
      await t.bahi.stop(); // the app owns its data directory while it runs
      const cli = async (...args: string[]) => {
        try {
          const { stdout } = await run('npx', ['tsx', 'scripts/verify.ts', ...args], {
            cwd: ROOT,
            env: { ...process.env, DATABASE_URL: '', BAHI_DATA_DIR: join(t.dir, 'data') },
          });
          return { code: 0, stdout };
        } catch (error) {
          const e = error as { code: number; stdout: string; stderr: string };
          return { code: e.code, stdout: `${e.stdout}${e.stderr}` };
        }
      };
      const store = await cli();
      expect(store.stdout).toContain(`BROKEN. The log is broken at position ${tampered}`);
      expect(store.code).toBe(1);
      const before = await cli('--report', files.before!);
      expect(before.stdout).toContain('VERIFIES');
      expect(before.code).toBe(0);
      const after = await cli('--report', files.after!);
      expect(after.stdout).toContain('DOES NOT VERIFY');
      expect(after.stdout).toContain('the log was altered at or before that position');
      expect(after.code).toBe(1);
      const straddling = await cli('--report', files.straddling!);
      expect(straddling.code).toBe(1);
      // The backup taken after the change: a sound file of an altered log.
      const backup = await cli('--file', files.backup!);
      expect(backup.stdout).toContain('intact');
      expect(backup.stdout).toContain('the log had been altered before this backup');
      expect(backup.code).toBe(1);
    },
    120_000,
  );
});

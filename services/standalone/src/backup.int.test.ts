import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type BackupManifest, BackupRefused, listBackups, readBackup, restoreBackup } from '@bahi/backup';
import { openCredentials } from '@bahi/command';
import { openEmbeddedStorage, openServerStorage, type Storage } from '@bahi/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';
import { expectBooksCaughtUp, expectRebuildIdentical } from './testing/books.ts';
import { type Body, openTestApp, type TestApp } from './testing/test-app.ts';

/**
 * Issue #26: a backup of the demo business taken while a write loop runs, restored into a new
 * Postgres database and into a new PGlite directory: the chain verified, the read models rebuilt,
 * every report equal; a file with one byte changed is refused with the event's position and
 * leaves nothing loaded.
 */
const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, '../../..');
const pgOnly = process.env.DATABASE_URL ? describe : describe.skip;
if (!process.env.DATABASE_URL) console.warn('backup tests: DATABASE_URL is not set; skipped');

pgOnly('backup and restore (issue #26)', () => {
  let source: TestApp;
  const closers: Array<() => Promise<unknown>> = [];
  let during: { manifest: BackupManifest; file: string };
  let ids: { funders: string[]; collectors: string[]; godowns: string[] };

  const backupNow = async (t: TestApp) => {
    const r = await t.call('POST', '/admin/backups');
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const manifest = r.body as BackupManifest;
    return { manifest, file: join(t.bahi.config.BAHI_DATA_DIR, 'backups', manifest.file) };
  };

  /** The main reports and lists, as one JSON document to compare. */
  const reports = async (t: TestApp) => {
    await t.syncToHead();
    await expectBooksCaughtUp(t);
    const paths = [
      '/reports/dashboard-summary',
      '/reports/stock',
      '/reports/balances?limit=100',
      '/reports/payments?limit=100',
      '/reports/salary-report?limit=100',
      '/reports/daywise-report?startDate=2000-01-01&endDate=2100-01-01',
      '/transactions/purchases?limit=100',
      '/transactions/sales?limit=100',
      ...ids.funders.map((id) => `/reports/ledger/Funder/${id}`),
      ...ids.collectors.map((id) => `/reports/ledger/Collector/${id}`),
      ...ids.godowns.map(
        (id) =>
          `/reports/cashbook-report?entity_type=Godown&entity_id=${id}&startDate=2000-01-01&endDate=2100-01-01`,
      ),
    ];
    const out: Record<string, Body> = {};
    for (const path of paths) {
      const r = await t.call('GET', path);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
      out[path] = r.body;
    }
    return out;
  };

  /** A new store of one kind, the backup restored into it, then the app started on it. */
  const restoreInto = async (kind: 'postgres' | 'pglite', file: string) => {
    if (kind === 'postgres') {
      const database = await withTestDatabase('restore');
      closers.push(() => database.drop());
      const storage = await openServerStorage({ databaseUrl: database.url, applicationName: 'bahi-test' });
      await openCredentials(storage.sql);
      const restored = await restoreBackup(storage, file).finally(() => storage.close());
      const t = await openTestApp({ databaseUrl: database.url });
      closers.push(() => t.close());
      return { t, restored };
    }
    let restored: Awaited<ReturnType<typeof restoreBackup>> | undefined;
    const t = await openTestApp({
      prepare: async (dir) => {
        const storage = await openEmbeddedStorage({ dataDir: join(dir, 'data', 'pglite') });
        await openCredentials(storage.sql);
        restored = await restoreBackup(storage, file).finally(() => storage.close());
      },
    });
    closers.push(() => t.close());
    return { t, restored: restored! };
  };

  const eventCount = async (storage: Storage) =>
    (await storage.sql.query<{ n: string }>('SELECT count(*)::text AS n FROM es.events')).rows[0]!.n;

  beforeAll(async () => {
    source = await openTestApp({ env: () => ({ BAHI_DEMO: '1' }) });
    closers.push(() => source.close());
    const list = async (kind: string) =>
      (await source.call('GET', `/masters/${kind}?limit=100`)).body.data as Body[];
    const [funders, collectors, godowns] = [
      await list('funders'),
      await list('collectors'),
      await list('godowns'),
    ];
    ids = {
      funders: funders.map((r) => r.id),
      collectors: collectors.map((r) => r.id),
      godowns: godowns.map((r) => r.id),
    };
    // A funder and a collector of its city for each payment.
    const pairs = funders.flatMap((f) =>
      collectors.filter((c) => c.city_id === f.city_id).map((c) => [f.id as string, c.id as string] as const),
    );
    expect(pairs.length).toBeGreaterThan(0);

    // The write loop: payments to funders, one after another, until told to stop.
    const acknowledged: bigint[] = [];
    let stop = false;
    let n = 0;
    const loop = (async () => {
      while (!stop) {
        n++;
        const [funder, collector] = pairs[n % pairs.length]!;
        const r = await source.call('POST', '/transactions/payments', {
          related_entity_type: 'Funder',
          related_entity_id: funder,
          payment_date: '2026-11-20',
          amount: `${n}.25`,
          payment_mode: 'Currency',
          collector_id: collector,
        });
        if (r.status !== 201) throw new Error(`a write of the loop failed: ${JSON.stringify(r.body)}`);
        acknowledged.push(BigInt(r.body.position));
      }
    })();
    let failed: unknown;
    loop.catch((error: unknown) => {
      failed = error;
    });
    const until = async (count: number) => {
      while (acknowledged.length < count) {
        if (failed) throw failed;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until(5);
    const before = acknowledged.length;
    const writtenBefore = acknowledged.slice(0, before);
    during = await backupNow(source);
    const after = acknowledged.length;
    await until(after + 5);
    stop = true;
    await loop;
    // Every write acknowledged before the backup was asked for is in it; the loop went on past it.
    const head = BigInt(during.manifest.headPosition);
    for (const position of writtenBefore) expect(position).toBeLessThanOrEqual(head);
    expect(acknowledged.at(-1)!).toBeGreaterThan(head);
  }, 300_000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
  });

  it('holds exactly the log up to its head, in order, with a chain that verifies', async () => {
    const head = BigInt(during.manifest.headPosition);
    const logged = (await source.bahi.eventStore.readAll(0n, 1_000_000)).filter((e) => e.position <= head);
    const read = await readBackup(during.file);
    const inFile = [];
    for await (const batch of read.events) inFile.push(...batch);
    expect(read.manifest()).toMatchObject({ events: logged.length, chainHead: during.manifest.chainHead });
    expect(read.header.schemaVersion).toBe(during.manifest.schemaVersion);
    expect(inFile.map((e) => [e.position, e.id, e.streamId, e.streamVersion, e.type])).toEqual(
      logged.map((e) => [e.position.toString(), e.id, e.streamId, e.streamVersion.toString(), e.type]),
    );
    expect(inFile.map((e) => [e.data, e.metadata])).toEqual(logged.map((e) => [e.data, e.metadata]));
    const status = await source.call('GET', '/admin/backups');
    expect(status.body).toMatchObject({ daily: false, keep: 7, running: false, last: during.manifest });
  });

  it('restores into a new Postgres database and a new PGlite directory: the same books, every report equal', async () => {
    const pg = await restoreInto('postgres', during.file);
    const lite = await restoreInto('pglite', during.file);
    for (const { restored, t } of [pg, lite]) {
      expect(restored.manifest.chainHead).toBe(during.manifest.chainHead);
      expect(restored.rebuild.events).toBe(during.manifest.events);
      // Issue #30: the file's verified hashes are the restored log's seal, and it verifies.
      expect(await t.bahi.eventStore.chainHeadAt!(BigInt(during.manifest.headPosition))).toEqual({
        position: BigInt(during.manifest.headPosition),
        hash: during.manifest.chainHead,
      });
      expect((await t.bahi.eventStore.verifyChain!()).status).toBe('intact');
    }
    const [a, b] = [await reports(pg.t), await reports(lite.t)];
    expect(a).toEqual(b);
    // The log positions are kept: the restored logs begin as the source's did.
    const head = BigInt(during.manifest.headPosition);
    const restoredLog = (await pg.t.bahi.eventStore.readAll(0n, 1_000_000)).filter((e) => e.position <= head);
    expect(restoredLog.at(-1)!.position).toBe(head);
    expect(restoredLog.length).toBe(during.manifest.events);
    // The rebuild compare on each restored store: its read models equal a replay of its log.
    await expectRebuildIdentical(pg.t);
    await expectRebuildIdentical(lite.t);
  }, 300_000);

  it('a backup taken once the writes stop restores to every report of the source, on either kind', async () => {
    const quiet = await backupNow(source);
    expect(BigInt(quiet.manifest.headPosition)).toBeGreaterThan(BigInt(during.manifest.headPosition));
    const expected = await reports(source);
    for (const kind of ['postgres', 'pglite'] as const) {
      const { t } = await restoreInto(kind, quiet.file);
      expect(await reports(t), kind).toEqual(expected);
    }
  }, 300_000);

  it('refuses a file with one byte changed, naming the event, and loads nothing', async () => {
    const text = gunzipSync(await readFile(during.file)).toString('utf8');
    const lines = text.split('\n');
    // One byte of one event's data, somewhere in the middle: an amount's digit.
    const index = lines.findIndex((l, i) => i > lines.length / 2 && /"amount":"\d/.test(l));
    expect(index).toBeGreaterThan(0);
    const target = JSON.parse(lines[index]!) as { position: string };
    lines[index] = lines[index]!.replace(
      /"amount":"(\d)/,
      (_m, d: string) => `"amount":"${(Number(d) + 1) % 10}`,
    );
    const altered = `${during.file}.altered.ndjson.gz`;
    await writeFile(altered, gzipSync(lines.join('\n')));
    const database = await withTestDatabase('tampered');
    closers.push(() => database.drop());
    const storage = await openServerStorage({ databaseUrl: database.url, applicationName: 'bahi-test' });
    closers.push(() => storage.close());
    await openCredentials(storage.sql);
    const refused = await restoreBackup(storage, altered).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BackupRefused);
    expect((refused as BackupRefused).position).toBe(target.position);
    expect((refused as Error).message).toContain(`position ${target.position}`);
    expect(await eventCount(storage)).toBe('0');

    // One byte changed in the compressed file itself: refused too, nothing loaded.
    const raw = await readFile(during.file);
    raw[Math.floor(raw.length / 2)]! ^= 0x01;
    const flipped = `${during.file}.flipped.ndjson.gz`;
    await writeFile(flipped, raw);
    const again = await restoreBackup(storage, flipped).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(BackupRefused);
    expect((again as Error).message).toMatch(/position \d+/);
    expect(await eventCount(storage)).toBe('0');

    // And the store it was restored into is no longer empty: a second restore is refused.
    await restoreBackup(storage, during.file);
    const twice = await restoreBackup(storage, during.file).catch((error: unknown) => error);
    expect((twice as Error).message).toMatch(/not empty/);
  }, 300_000);
});

describe('the standalone’s own backups (BAHI_BACKUP_DIR, BAHI_BACKUP_KEEP)', () => {
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it('takes one at start, keeps the newest N, and answers Admins only', async () => {
    t = await openTestApp({
      env: (dir) => ({ BAHI_BACKUP_DIR: join(dir, 'backups'), BAHI_BACKUP_KEEP: '2' }),
    });
    const dir = join(t.dir, 'backups');
    // The daily backup finds none at start and takes one.
    for (let i = 0; (await listBackups(dir)).length === 0; i++) {
      expect(i).toBeLessThan(300);
      await new Promise((r) => setTimeout(r, 50));
    }
    const status = await t.call('GET', '/admin/backups');
    expect(status.body).toMatchObject({ directory: dir, daily: true, keep: 2 });
    // Two more: the oldest goes, the newest two stay, file and manifest.
    let newest: BackupManifest | undefined;
    for (let i = 0; i < 2; i++) {
      await new Promise((r) => setTimeout(r, 1100)); // file names are by the second
      const r = await t.call('POST', '/admin/backups');
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      newest = r.body;
    }
    const kept = await listBackups(dir);
    expect(kept.map((b) => b.file)).toHaveLength(2);
    expect(kept[0]).toEqual(newest);
    expect((await readdir(dir)).sort()).toEqual(
      kept.flatMap((b) => [b.file, `${b.file}.manifest.json`]).sort(),
    );
    expect((await t.call('GET', '/admin/backups')).body.last).toEqual(newest);
    // A Viewer may not see or take them.
    const viewer = await t.call('POST', '/masters/users', {
      name: 'Vera',
      email: 'vera@bahi.local',
      password: 'viewer-password-1',
      role: 'Viewer',
    });
    expect(viewer.status, JSON.stringify(viewer.body)).toBe(201);
    const token = await t.login('vera@bahi.local', 'viewer-password-1');
    expect((await t.call('GET', '/admin/backups', undefined, token)).status).toBe(403);
    const refused = await t.call('POST', '/admin/backups', undefined, token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Your role (Viewer) cannot change the backups.');
  }, 120_000);

  it('npm run backup / restore: refused while the app holds ./data, then a round trip into a new directory', async () => {
    const dataDir = join(t!.dir, 'data');
    const cli = (script: string, args: string[], dir: string) =>
      run(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
        cwd: REPO,
        env: { ...process.env, BAHI_DATA_DIR: dir, DATABASE_URL: '' },
      });
    const held = await cli('backup', ['--out', join(t!.dir, 'cli')], dataDir).catch((e: unknown) => e);
    expect(held).toMatchObject({ code: 1 });
    expect((held as { stderr: string }).stderr).toContain('Settings > System > "Back up now"');
    await t!.bahi.stop();
    const taken = await cli('backup', ['--out', join(t!.dir, 'cli')], dataDir);
    const file = /file: +(\S+\.ndjson\.gz)/.exec(taken.stdout)?.[1];
    expect(file, taken.stdout).toBeDefined();
    const restored = await cli('restore', [file!], join(t!.dir, 'restored'));
    expect(restored.stdout).toMatch(
      /restore: \d+ events up to position \d+ restored into PGlite .* chain verified/,
    );
    const again = await cli('restore', [file!], join(t!.dir, 'restored')).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 1 });
    expect((again as { stderr: string }).stderr).toContain('The store is not empty');
  }, 120_000);
});

import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from './standalone.ts';
import { expectBooksCaughtUp, expectRebuildIdentical } from './testing/books.ts';
import { plantUnprojectableGodown } from './testing/poison.ts';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

const REPO = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

/**
 * Issue #16, quarantine: an event already in the log that a projection cannot apply (planted
 * here straight in the store, as an older release or a bug could have written it) stops that
 * projection. The operator sees the failing event, sets it aside with a reason through the
 * Admin API or the CLI, the projection goes on, and a rebuild agrees with it.
 */
describe.each(TEST_STORAGES)('quarantine of an unprojectable event [%s]', (storage) => {
  let t: TestApp;
  let bahi: Standalone;
  let url: string;
  let restarted: Standalone | undefined;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${t.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
  const plant = (name: string) => plantUnprojectableGodown(bahi.eventStore, name);
  const mastersStatus = async () =>
    (await call('GET', '/admin/projections')).body.projections.find((p: Body) => p.name === 'masters');
  const until = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 200; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const godownNames = async () =>
    (await call('GET', '/masters/godowns?limit=-1')).body.data.map((g: Body) => g.name).sort();

  beforeAll(async () => {
    t = await openTestApp({ storage });
    bahi = t.bahi;
    url = bahi.url;
    expect((await call('POST', '/masters/godowns', { name: 'Before' })).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await restarted?.stop();
    await t?.close();
  });

  it('stops the masters projection alone, shows the failing event, and quarantines it through the Admin API', async () => {
    const poison = await plant('Poison');
    await until(async () => (await mastersStatus())?.status === 'failed', 'masters to stop');
    const status = await mastersStatus();
    expect(status.failingEvent).toEqual({
      position: poison,
      type: 'GodownCreated',
      streamId: expect.any(String),
    });
    expect(status.error).toMatch(new RegExp(`GodownCreated event at position ${poison}`));
    // Only masters stopped: the others applied the event.
    const others = (await call('GET', '/admin/projections')).body.projections.filter(
      (p: Body) => p.name !== 'masters',
    );
    expect(others.filter((p: Body) => p.status === 'failed')).toEqual([]);

    // The public readiness check says that it stopped, not the database's words.
    const ready = (await (await fetch(`${url}/api/ready`)).json()) as Body;
    const readyMasters = ready.projections.find((p: Body) => p.name === 'masters');
    expect(readyMasters).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^stopped after a failure/),
    });
    expect(JSON.stringify(ready)).not.toMatch(/out of range|0000-01-01/);

    const seen = await call('GET', '/admin/projections/masters/failing-event');
    expect(seen.status).toBe(200);
    expect(seen.body.event).toMatchObject({
      position: poison,
      type: 'GodownCreated',
      data: { name: 'Poison' },
    });
    expect((await call('GET', '/admin/projections/journal/failing-event')).status).toBe(404);

    // Refused: another position, no reason, a projection that is not stopped.
    const wrong = await call('POST', '/admin/projections/masters/quarantine', {
      position: '1',
      reason: 'x y z',
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body.errors).toEqual([
      { msg: expect.stringMatching(/stopped at the event at position/), path: 'position' },
    ]);
    const noReason = await call('POST', '/admin/projections/masters/quarantine', { position: poison });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toContainEqual({ msg: expect.any(String), path: 'reason' });
    const running = await call('POST', '/admin/projections/journal/quarantine', {
      position: poison,
      reason: 'no' + 'pe',
    });
    expect(running.status).toBe(409);

    const done = await call('POST', '/admin/projections/masters/quarantine', {
      position: poison,
      reason: 'joining date in year 0, written before dates were checked',
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.quarantined).toMatchObject({ position: poison, type: 'GodownCreated' });

    // It goes on: writes after the poison are read back; the poison is not a godown.
    expect((await call('POST', '/masters/godowns', { name: 'After' })).status).toBe(201);
    await expectBooksCaughtUp(t);
    expect(await godownNames()).toEqual(['After', 'Before']);
    const list = (await call('GET', '/admin/projections')).body;
    expect(list.quarantined).toEqual([
      expect.objectContaining({
        projection: 'masters',
        position: poison,
        event_type: 'GodownCreated',
        reason: 'joining date in year 0, written before dates were checked',
        quarantinedBy: expect.any(String),
      }),
    ]);
  });

  it('a rebuild honours the quarantine and agrees with the live read models', async () => {
    await expectRebuildIdentical(t);
    const swapped = await call('POST', '/admin/projections/rebuild', { projections: ['masters'] });
    expect(swapped.status).toBe(202);
    await until(async () => {
      const r = (await call('GET', '/admin/projections')).body.rebuilds.find(
        (b: Body) => b.id === swapped.body.id,
      );
      expect(r?.status).not.toBe('failed');
      return r?.status === 'done' && r.report.identical === true;
    }, 'the swap');
    expect(await godownNames()).toEqual(['After', 'Before']);
  }, 120_000);

  // The CLI takes the data directory's lock, so on PGlite it runs while the app is stopped.
  const onPglite = storage === 'pglite' ? it : () => undefined;
  onPglite(
    'quarantines through the CLI with the app stopped; after a restart the projection goes on',
    async () => {
      const poison = await plant('Poison 2');
      await until(async () => (await mastersStatus())?.status === 'failed', 'masters to stop again');
      await bahi.stop();
      const env = { ...process.env, BAHI_DATA_DIR: join(t.dir, 'data'), DATABASE_URL: '' };
      const cli = (...args: string[]) =>
        run(process.execPath, ['--import', 'tsx', 'scripts/projections.ts', ...args], { cwd: REPO, env });
      const failing = await cli('failing', 'masters');
      expect(failing.stdout).toContain(`masters is stopped at position ${poison}: GodownCreated`);
      await expect(cli('quarantine', 'masters', poison)).rejects.toMatchObject({ code: 2 }); // no reason: usage
      const done = await cli('quarantine', 'masters', poison, '--reason', 'year 0 again');
      expect(done.stdout).toContain(`the GodownCreated event at position ${poison} is set aside for masters`);
      const status = await cli('status');
      expect(status.stdout).not.toMatch(/failed/);

      restarted = await startStandalone(
        {
          PORT: '0',
          HOST: '127.0.0.1',
          BAHI_DATA_DIR: join(t.dir, 'data'),
          BAHI_FRONTENDS_DIR: join(t.dir, 'none'),
        },
        { logger: false },
      );
      url = restarted.url;
      expect((await call('POST', '/masters/godowns', { name: 'Later' })).status).toBe(201);
      const head = (await (await fetch(`${url}/api/ready`)).json()) as Body;
      await until(async () => {
        const s = await mastersStatus();
        return s?.status === 'running' && BigInt(s.position) >= BigInt(head.eventStore.headPosition);
      }, 'masters to catch up after the restart');
      expect(await godownNames()).toEqual(['After', 'Before', 'Later']);
      const list = (await call('GET', '/admin/projections')).body;
      expect(list.quarantined.map((q: Body) => q.position)).toHaveLength(2);
      // A rebuild from the log leaves both out and agrees with the live read models.
      const asked = await call('POST', '/admin/projections/rebuild', { swap: false });
      expect(asked.status).toBe(202);
      await until(async () => {
        const r = (await call('GET', '/admin/projections')).body.rebuilds.find(
          (b: Body) => b.id === asked.body.id,
        );
        expect(r?.status).not.toBe('failed');
        return r?.status === 'done';
      }, 'the rebuild');
      const rebuild = (await call('GET', '/admin/projections')).body.rebuilds.find(
        (b: Body) => b.id === asked.body.id,
      );
      expect(rebuild.report.identical).toBe(true);
      await restarted.stop();
      restarted = undefined;
    },
    180_000,
  );
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/** The Admin API for read models on the standalone (embedded PGlite): rebuild, status, resume. */
describe.each(TEST_STORAGES)('read-model operations through the Admin API [%s]', (storage) => {
  let t: TestApp;
  let viewer = '';

  beforeAll(async () => {
    t = await openTestApp({ storage });
    const city = (await t.call('POST', '/masters/cities', { name: 'Pune', currency_name: 'INR', rate: 1 }))
      .body.id;
    await t.call('POST', '/masters/funders', { name: 'Farah', city_id: city });
    await t.call('POST', '/masters/users', {
      name: 'Vik',
      email: 'vik@test.local',
      role: 'Viewer',
      is_active: true,
      password: 'viewer-password-1',
    });
    viewer = await t.login('vik@test.local', 'viewer-password-1');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an Admin asks for a rebuild; the projector runs it, compares, swaps, and the status shows the report', async () => {
    const asked = await t.call('POST', '/admin/projections/rebuild', { projections: ['masters', 'journal'] });
    expect(asked.status).toBe(202);
    expect(asked.body.id).toMatch(/^[0-9a-f-]{36}$/);

    let status = (await t.call('GET', '/admin/projections')).body;
    for (let i = 0; i < 200 && status.rebuilds[0]?.status !== 'done'; i++) {
      expect(status.rebuilds[0]?.status).not.toBe('failed');
      await new Promise((r) => setTimeout(r, 50));
      status = (await t.call('GET', '/admin/projections')).body;
    }
    const [rebuild] = status.rebuilds;
    expect(rebuild).toMatchObject({ id: asked.body.id, status: 'done', projections: ['masters', 'journal'] });
    expect(rebuild.report.identical).toBe(true);
    expect(rebuild.report.comparisons.map((c: { projection: string }) => c.projection)).toEqual([
      'masters',
      'journal',
    ]);
    const funders = rebuild.report.comparisons[0].tables.find(
      (x: { table: string }) => x.table === 'parties',
    );
    expect(funders).toMatchObject({ liveRows: 1, shadowRows: 1, identical: true });
    expect(status.projections.find((p: { name: string }) => p.name === 'masters')).toMatchObject({
      status: 'running',
      lag: expect.any(String),
    });
    // The swapped-in tables serve reads and take new writes.
    expect((await t.call('GET', '/masters/funders')).body.totalItems).toBe(1);
  });

  it('refuses what it cannot do with a clear message, and only Admins may do it', async () => {
    const unknown = await t.call('POST', '/admin/projections/rebuild', { projections: ['ledgers'] });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toMatch(/must be one of: event_type_counts/);
    expect((await t.call('POST', '/admin/projections/rebuild', { swap: 'yes' })).status).toBe(400);
    expect((await t.call('POST', '/admin/projections/rebuild', { extra: 1 })).status).toBe(400);

    const notStopped = await t.call('POST', '/admin/projections/journal/resume');
    expect(notStopped).toMatchObject({
      status: 409,
      body: { message: 'The journal projection is not stopped.' },
    });
    expect((await t.call('POST', '/admin/projections/nope/resume')).status).toBe(404);

    const asViewer = await t.call('POST', '/admin/projections/rebuild', {}, viewer);
    expect(asViewer).toMatchObject({
      status: 403,
      body: { message: 'Your role (Viewer) cannot change the read models.' },
    });
    expect((await t.call('GET', '/admin/projections', undefined, viewer)).status).toBe(403);
    expect((await t.call('POST', '/admin/projections/journal/resume', undefined, viewer)).status).toBe(403);
  });
});

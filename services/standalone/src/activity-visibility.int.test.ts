import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Issue #27.3: the dashboard's Recent Activity (`GET /api/logs/recent`, any signed-in role)
 * showed every role the email, phone, role and active flag of new and changed users. It now
 * answers each role what the live stream tells it: User entries for Admins only.
 */
describe.each(TEST_STORAGES)('the activity log tells each role what it may read [%s]', (storage) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await openTestApp({ storage });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it("a Viewer's recent activity carries no user data; the same request as Admin does", async () => {
    const viewer = await t.call('POST', '/masters/users', {
      name: 'Vera Viewer',
      email: 'vera@x.io',
      phone: '+91 90000 11111',
      password: 'secret-pw',
      role: 'Viewer',
    });
    expect(viewer.status).toBe(201);
    expect((await t.call('POST', '/masters/products', { name: 'Jaggery' })).status).toBe(201);
    const mona = await t.call('POST', '/masters/users', {
      name: 'Mona Manager',
      email: 'mona@x.io',
      phone: '+91 98765 43210',
      password: 'secret-pw',
      role: 'Manager',
    });
    expect(mona.status).toBe(201);
    const changed = await t.call('PUT', `/masters/users/${mona.body.id}`, {
      name: 'Mona Manager',
      email: 'mona.m@x.io',
      phone: '+91 98765 00000',
      role: 'Collector',
      is_active: false,
    });
    expect(changed.status).toBe(200);
    await t.syncToHead();
    const secrets = /vera@x\.io|mona@x\.io|mona\.m@x\.io|98765|90000|Collector/;

    const asViewer = await t.call('GET', '/logs/recent', undefined, await t.login('vera@x.io', 'secret-pw'));
    expect(asViewer.status).toBe(200);
    const viewerModels = asViewer.body.map((e: { model_name: string }) => e.model_name);
    expect(viewerModels).toContain('Product'); // what it may read is still there
    expect(viewerModels).not.toContain('User');
    expect(JSON.stringify(asViewer.body)).not.toMatch(secrets);

    const asAdmin = await t.call('GET', '/logs/recent');
    expect(asAdmin.status).toBe(200);
    const [update] = asAdmin.body;
    expect(update).toMatchObject({
      action_type: 'UPDATE',
      model_name: 'User',
      record_id: mona.body.id,
      old_data: { email: 'mona@x.io', phone: '+91 98765 43210', role: 'Manager', is_active: true },
      new_data: { email: 'mona.m@x.io', phone: '+91 98765 00000', role: 'Collector', is_active: false },
    });
    expect(asAdmin.body.map((e: { model_name: string }) => e.model_name)).toEqual(
      expect.arrayContaining(['User', 'Product']),
    );
    expect(JSON.stringify(asAdmin.body)).not.toMatch(/password|argon/i);
  }, 60_000);
});

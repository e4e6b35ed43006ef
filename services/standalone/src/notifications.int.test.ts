import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateLicenseKeys, issueLicense } from '@bahi/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

describe.each(TEST_STORAGES)('notifications: the license expiring, for Admins [%s]', (storage) => {
  let t: TestApp;
  const call = (method: string, path: string, token?: string) => t.call(method, path, undefined, token);

  beforeAll(async () => {
    t = await openTestApp({
      storage,
      // A license that runs out in five days: within its 15-day notice period.
      async prepare(dir) {
        const keys = await generateLicenseKeys();
        const license = await issueLicense(keys.privateKeyPem, {
          status: 'Active',
          type: 'Standard',
          expires_at: new Date(Date.now() + 5 * 86_400_000 - 60_000).toISOString(),
          grace_period_days: 7,
          expiry_notification_days: 15,
        });
        await writeFile(join(dir, 'license.jws'), license);
        await writeFile(join(dir, 'public.pem'), keys.publicKeyPem);
      },
      env: (dir) => ({
        BAHI_LICENSE_FILE: join(dir, 'license.jws'),
        BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
      }),
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('tells Admins once a day that the license expires soon, and counts what they have not read', async () => {
    await t.syncToHead(); // the notice was raised at start, before this client wrote anything
    const res = await call('GET', '/notifications?limit=7');
    expect(res.status).toBe(200);
    expect(res.body.unreadCount).toBe(1);
    expect(res.body.notifications).toHaveLength(1);
    expect(res.body.notifications[0]).toMatchObject({
      type: 'warning',
      title: 'License expiring',
      message: 'Your application license will expire in 5 day(s). Please contact support for renewal.',
      is_read: false,
      link: '/profile',
    });
  });

  it('marks one as read, and all as read, for that user only', async () => {
    const id = (await call('GET', '/notifications')).body.notifications[0].id;
    expect((await call('POST', `/notifications/${id}/read`)).status).toBe(200);
    expect((await call('GET', '/notifications')).body).toMatchObject({
      unreadCount: 0,
      notifications: [{ id, is_read: true }],
    });
    expect((await call('POST', '/notifications/read-all')).status).toBe(200);
    expect((await call('GET', '/notifications')).body.unreadCount).toBe(0);
    expect((await call('POST', '/notifications/not-an-id/read')).status).toBe(404);
  });

  it('shows Admin notices to Admins only', async () => {
    await t.call('POST', '/masters/users', {
      name: 'Vee',
      email: 'vee@x.io',
      password: 'secret-pw',
      role: 'Viewer',
    });
    const viewer = await t.login('vee@x.io', 'secret-pw');
    expect((await call('GET', '/notifications', viewer)).body).toEqual({ notifications: [], unreadCount: 0 });
  });
});

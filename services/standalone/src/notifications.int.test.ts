import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateLicenseKeys, issueLicense } from '@bahi/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from './standalone.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below
type Body = any;

describe('notifications: the license expiring, for Admins', () => {
  let dir: string;
  let bahi: Standalone;
  let admin: string;
  let last = '0';
  const call = async (method: string, path: string, token = admin) => {
    const res = await fetch(`${bahi.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'x-bahi-position': last },
    });
    const body = (await res.json()) as Body;
    if (method !== 'GET' && res.status < 300 && body.position) last = body.position;
    return { status: res.status, body };
  };
  const login = async (email: string, password: string) =>
    (
      (await (
        await fetch(`${bahi.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        })
      ).json()) as { token: string }
    ).token;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bahi-notify-'));
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
    bahi = await startStandalone(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        BAHI_DATA_DIR: join(dir, 'data'),
        BAHI_FRONTENDS_DIR: join(dir, 'none'),
        BAHI_LICENSE_FILE: join(dir, 'license.jws'),
        BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
      },
      { logger: false },
    );
    admin = await login(bahi.config.BAHI_ADMIN_EMAIL, bahi.config.BAHI_ADMIN_PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await bahi?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('tells Admins once a day that the license expires soon, and counts what they have not read', async () => {
    last = (await call('POST', '/auth/retry-license-check')).body.position ?? last;
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
    const created = await fetch(`${bahi.url}/api/masters/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Vee', email: 'vee@x.io', password: 'secret-pw', role: 'Viewer' }),
    });
    last = ((await created.json()) as Body).position;
    const viewer = await login('vee@x.io', 'secret-pw');
    expect((await call('GET', '/notifications', viewer)).body).toEqual({ notifications: [], unreadCount: 0 });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Standalone } from './standalone.ts';
import { messages } from './testing/sse.ts';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

describe.each(TEST_STORAGES)('the live event stream [%s]', (storage) => {
  let t: TestApp;
  let bahi: Standalone;
  let token: string;
  let cookie: string;

  beforeAll(async () => {
    t = await openTestApp({ storage });
    bahi = t.bahi;
    // Its own sign-in: the point here is the session cookie it sets.
    const login = await fetch(`${bahi.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: bahi.config.BAHI_ADMIN_EMAIL,
        password: bahi.config.BAHI_ADMIN_PASSWORD,
      }),
    });
    token = ((await login.json()) as { token: string }).token;
    const setCookie = login.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^bahi_session=[^;]+; HttpOnly; SameSite=Strict; Path=\/api; Max-Age=\d+$/);
    cookie = setCookie.split(';')[0]!;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const open = (headers: Record<string, string> = {}) =>
    fetch(`${bahi.url}/api/events`, { headers: { accept: 'text/event-stream', cookie, ...headers } });
  const write = (path: string, body?: unknown) =>
    fetch(`${bahi.url}/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });

  it('streams what changes and license updates to a session cookie, and resumes after Last-Event-ID', async () => {
    const response = await open();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const stream = messages(response);
    expect((await stream.next()).event).toBe('ready');
    expect((await write('/masters/products', { name: 'Salt' })).status).toBe(201);
    const changed = await stream.next();
    expect(changed).toMatchObject({
      event: 'data-changed',
      data: { type: 'ProductCreated', stream: 'product' },
    });
    expect((await write('/auth/retry-license-check')).status).toBe(200);
    const license = await stream.next();
    expect(license).toMatchObject({ event: 'license-updated', data: { isValid: true } });
    await stream.close();

    // Reconnecting after the product: the license update is delivered again, nothing before it.
    const again = messages(await open({ 'last-event-id': changed.id! }));
    expect((await again.next()).event).toBe('ready');
    expect(await again.next()).toMatchObject({ id: license.id, event: 'license-updated' });
    await again.close();
  });

  it('refuses a stream without a session, and never takes a token from the URL', async () => {
    const anonymous = await fetch(`${bahi.url}/api/events`, { headers: { accept: 'text/event-stream' } });
    expect(anonymous.status).toBe(401);
    // A token in the URL is refused on its name (the stream takes no parameters), before any
    // session is looked at: it never signs anyone in.
    const inUrl = await fetch(`${bahi.url}/api/events?token=${token}`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(inUrl.status).toBe(400);
    const refused = (await inUrl.json()) as { errors: Array<{ path: string }> };
    expect(refused.errors.map((e) => e.path)).toEqual(['token']);
    const bearer = await fetch(`${bahi.url}/api/events`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
    });
    expect(bearer.status).toBe(200);
    await bearer.body?.cancel();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headPosition } from './testing/books.ts';
import { messages } from './testing/sse.ts';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/** Issue #16: a live stream is no way around deactivation, a password change, roles or limits. */
describe.each(TEST_STORAGES)('the live event stream, hardened [%s]', (storage) => {
  let t: TestApp;
  let n = 0;

  beforeAll(async () => {
    t = await openTestApp({ storage });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const open = (token: string, headers: Record<string, string> = {}) =>
    fetch(`${t.bahi.url}/api/events`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${token}`, ...headers },
    });
  /** A new user of that role, signed in: its id, email and token. */
  const newUser = async (role: string) => {
    const email = `u${++n}@x.io`;
    const created = await t.call('POST', '/masters/users', {
      name: `User ${n}`,
      email,
      password: 'secret-pw',
      role,
    });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, email, token: await t.login(email, 'secret-pw') };
  };
  const expectEnds = async (stream: ReturnType<typeof messages>) => {
    // Whatever was already on the way may still come; then the stream ends.
    for (let i = 0; i < 5; i++) {
      try {
        await stream.next(8000);
      } catch (error) {
        expect((error as Error).message).toBe('stream ended');
        return;
      }
    }
    throw new Error('the stream did not end');
  };

  it('ends a stream whose user is deactivated or deleted', async () => {
    const a = await newUser('Viewer');
    const b = await newUser('Viewer');
    const sa = messages(await open(a.token));
    const sb = messages(await open(b.token));
    expect((await sa.next()).event).toBe('ready');
    expect((await sb.next()).event).toBe('ready');
    const update = await t.call('PUT', `/masters/users/${a.id}`, {
      name: 'User A',
      email: a.email,
      role: 'Viewer',
      is_active: false,
    });
    expect(update.status).toBe(200);
    await expectEnds(sa);
    expect((await t.call('DELETE', `/masters/users/${b.id}`)).status).toBe(200);
    await expectEnds(sb);
    expect((await open(a.token)).status).toBe(401);
    expect((await open(b.token)).status).toBe(401);
  }, 60_000);

  it('a password change ends the tokens issued before it, and their streams', async () => {
    const u = await newUser('Manager');
    const stream = messages(await open(u.token));
    expect((await stream.next()).event).toBe('ready');
    const changed = await t.call('PUT', `/masters/users/${u.id}`, {
      name: 'Manager',
      email: u.email,
      role: 'Manager',
      is_active: true,
      password: 'a-new-password',
    });
    expect(changed.status).toBe(200);
    const old = await t.call('GET', '/masters/products', undefined, u.token);
    expect(old.status).toBe(401);
    expect(old.body.message).toBe('Your password has changed. Please sign in again.');
    await expectEnds(stream);
    expect((await open(u.token)).status).toBe(401);
    const fresh = await t.login(u.email, 'a-new-password');
    expect((await t.call('GET', '/masters/products', undefined, fresh)).status).toBe(200);
    await expect(t.login(u.email, 'secret-pw')).rejects.toThrow(/401/);
  }, 60_000);

  it('tells each role only what it may read: users are for Admins', async () => {
    const viewer = await newUser('Viewer');
    const collector = await newUser('Collector');
    const streams = [messages(await open(viewer.token)), messages(await open(collector.token))];
    const admin = messages(await open(t.token));
    for (const s of [...streams, admin]) expect((await s.next()).event).toBe('ready');
    await newUser('Viewer'); // UserCreated and UserEmailReserved
    expect((await t.call('POST', '/masters/products', { name: `Salt ${n}` })).status).toBe(201);
    for (const s of streams) {
      const first = await s.next();
      expect(first).toMatchObject({
        event: 'data-changed',
        data: { type: 'ProductCreated', stream: 'product' },
      });
      await s.close();
    }
    const seen: string[] = [];
    for (;;) {
      const m = (await admin.next()) as { data: { type: string } };
      seen.push(m.data.type);
      if (m.data.type === 'ProductCreated') break;
    }
    expect(seen).toContain('UserCreated');
    await admin.close();
  }, 60_000);

  it('caps open streams per user at 5, and frees a place when one closes', async () => {
    const u = await newUser('Viewer');
    const streams = [];
    for (let i = 0; i < 5; i++) {
      const response = await open(u.token);
      expect(response.status).toBe(200);
      const s = messages(response);
      expect((await s.next()).event).toBe('ready');
      streams.push(s);
    }
    const sixth = await open(u.token);
    expect(sixth.status).toBe(429);
    expect(((await sixth.json()) as { message: string }).message).toMatch(/already have 5 live streams open/);
    // Another user is not affected.
    const other = await open(t.token);
    expect(other.status).toBe(200);
    await other.body?.cancel();
    await streams.pop()!.close();
    let again: Response | undefined;
    for (let i = 0; i < 50; i++) {
      again = await open(u.token);
      if (again.status === 200) break;
      await again.body?.cancel();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(again!.status).toBe(200);
    await again!.body?.cancel();
    for (const s of streams) await s.close();
  }, 60_000);

  it('replays at most the last 10,000 positions, and says when some were missed', async () => {
    const before = BigInt(await headPosition(t));
    // A Last-Event-ID inside the window resumes right there.
    const near = messages(await open(t.token, { 'last-event-id': (before - 1n).toString() }));
    expect(await near.next()).toMatchObject({ event: 'ready', data: { position: (before - 1n).toString() } });
    await near.close();
    await t.bahi.eventStore.append(
      'system-filler',
      Array.from({ length: 10_001 }, () => ({
        type: 'StandaloneStarted',
        data: { pid: 1, frontendsBuilt: false },
        metadata: { schemaVersion: 1 },
      })),
      'any',
    );
    const head = BigInt(await headPosition(t));
    const far = messages(await open(t.token, { 'last-event-id': '0' }));
    expect(await far.next()).toMatchObject({
      event: 'ready',
      data: { position: (head - 10_000n).toString(), missed: true },
    });
    await far.close();
  }, 60_000);
});

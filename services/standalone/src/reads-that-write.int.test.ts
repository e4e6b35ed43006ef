import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headPosition } from './testing/books.ts';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

/**
 * Issue #16: a Viewer may call a few routes that append events (marking notifications read,
 * re-checking the license, sending a report). None of them may append without limit.
 */
describe.each(TEST_STORAGES)('reads that write append only what changes something [%s]', (storage) => {
  let t: TestApp;
  let viewer: string;

  beforeAll(async () => {
    t = await openTestApp({ storage });
    const created = await t.call('POST', '/masters/users', {
      name: 'Vee',
      email: 'vee@x.io',
      password: 'secret-pw',
      role: 'Viewer',
    });
    expect(created.status).toBe(201);
    viewer = await t.login('vee@x.io', 'secret-pw');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const as = (method: string, path: string, body?: unknown) => t.call(method, path, body, viewer);
  const raise = async (audience: string) => {
    const id = randomUUID();
    await t.bahi.eventStore.append(
      'notifications-test',
      [
        {
          id,
          type: 'NotificationRaised',
          data: { id, audience, type: 'info', title: 'Hello', message: 'A notice', link: null },
          metadata: { schemaVersion: 1 },
        },
      ],
      'any',
    );
    return id;
  };
  /** The request's answer, and that the event log did not move. */
  const appendsNothing = async (request: () => Promise<{ status: number; body: unknown }>) => {
    const before = await headPosition(t);
    const answer = await request();
    expect(await headPosition(t)).toBe(before);
    return answer;
  };

  it('refuses unknown notifications and another role’s, and marks a read one only once', async () => {
    const unknown = await appendsNothing(() => as('POST', `/notifications/${randomUUID()}/read`));
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Notification not found.' } });
    expect((await appendsNothing(() => as('POST', '/notifications/not-a-uuid/read'))).status).toBe(404);
    const forAdmins = await raise('Admin');
    expect((await appendsNothing(() => as('POST', `/notifications/${forAdmins}/read`))).status).toBe(404);

    const mine = await raise('Viewer');
    const before = BigInt(await headPosition(t));
    expect((await as('POST', `/notifications/${mine}/read`)).status).toBe(200);
    expect(BigInt(await headPosition(t))).toBeGreaterThan(before);
    await t.syncToHead();
    for (let i = 0; i < 3; i++)
      expect((await appendsNothing(() => as('POST', `/notifications/${mine}/read`))).status).toBe(200);
  });

  it('read-all appends only when something is unread', async () => {
    await raise('Viewer');
    const before = BigInt(await headPosition(t));
    expect((await as('POST', '/notifications/read-all')).status).toBe(200);
    expect(BigInt(await headPosition(t))).toBeGreaterThan(before);
    await t.syncToHead();
    for (let i = 0; i < 3; i++)
      expect((await appendsNothing(() => as('POST', '/notifications/read-all'))).status).toBe(200);
    expect((await as('GET', '/notifications')).body.unreadCount).toBe(0);
  });

  it('records a license check only when its outcome changes, and limits retries per user', async () => {
    expect((await as('POST', '/auth/retry-license-check')).status).toBe(200);
    for (let i = 1; i < 10; i++) {
      const again = await appendsNothing(() => as('POST', '/auth/retry-license-check'));
      expect(again.status).toBe(200);
    }
    const limited = await appendsNothing(() => as('POST', '/auth/retry-license-check'));
    expect(limited.status).toBe(429);
    expect((limited.body as { message: string }).message).toMatch(
      /^The license was checked 10 times in the last minute\. Please try again in \d+ seconds\.$/,
    );
    // Another user has their own allowance.
    expect((await t.call('POST', '/auth/retry-license-check')).status).toBe(200);
  });

  it('refuses WhatsApp report filters over 20 kB', async () => {
    const big = await appendsNothing(() =>
      as('POST', '/reports/whatsapp', {
        recipientNumber: '+919876543210',
        reportName: 'stock',
        data: { search: 'x'.repeat(21_000) },
      }),
    );
    expect(big).toMatchObject({
      status: 413,
      body: { message: "A report's filters (data) can be at most 20 kB." },
    });
    const many = await appendsNothing(() =>
      as('POST', '/reports/whatsapp', {
        recipientNumber: '+919876543210',
        reportName: 'stock',
        data: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, 'v'])),
      }),
    );
    expect(many.status).toBe(413);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Message, messages } from './testing/sse.ts';
import { openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

type Stream = ReturnType<typeof messages>;

/**
 * Issue #27.4: replays are bounded for everyone. Many streams resuming at once are served from
 * one reader of the log's tail, in turns, and still hear every event after their Last-Event-ID
 * in order; beyond the overall cap (BAHI_MAX_STREAMS) a stream is refused with a 503 that says
 * why and when to come back. bench/src/replay-storm.ts measures what reads and writes cost
 * meanwhile (no timing is asserted here).
 */
describe.each(TEST_STORAGES)('replay storms [%s]', (storage) => {
  const USERS = 8;
  const PER_USER = 5;
  const CAP = USERS * PER_USER + 5;
  let t: TestApp;
  let n = 0;
  const viewers: string[] = [];
  const kept: Stream[] = [];

  beforeAll(async () => {
    t = await openTestApp({ storage, env: () => ({ BAHI_MAX_STREAMS: String(CAP) }) });
    for (let u = 0; u < USERS + 2; u++) {
      const email = `storm${u}@x.io`;
      const created = await t.call('POST', '/masters/users', {
        name: `Viewer ${u}`,
        email,
        password: 'secret-pw',
        role: 'Viewer',
      });
      expect(created.status).toBe(201);
      viewers.push(await t.login(email, 'secret-pw'));
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all(kept.map((s) => s.close().catch(() => {})));
    await t?.close();
  });

  const open = (token: string, lastEventId?: string) =>
    fetch(`${t.bahi.url}/api/events`, {
      headers: {
        accept: 'text/event-stream',
        authorization: `Bearer ${token}`,
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
    });
  /** `count` products, `parallel` at a time; the position of the last write. */
  const products = async (count: number, parallel = 8) => {
    let last = 0n;
    for (let i = 0; i < count; i += parallel) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(parallel, count - i) }, () =>
          t.call('POST', '/masters/products', { name: `Storm product ${++n}` }),
        ),
      );
      for (const a of answers) {
        expect(a.status).toBe(201);
        if (BigInt(a.body.position) > last) last = BigInt(a.body.position);
      }
    }
    return last;
  };
  /** Everything a stream says up to and including position `until`, after its `ready`. */
  const readUntil = async (stream: Stream, until: bigint) => {
    const got: Message[] = [];
    for (;;) {
      const m = await stream.next(30_000);
      got.push(m);
      if (m.id && BigInt(m.id) >= until) return got;
    }
  };

  it('40 streams resuming at once each hear every event after their Last-Event-ID, in order, while writes go on', async () => {
    // A Viewer that follows live from before any of it: what every replay must hear.
    const reference = messages(await open(viewers[USERS + 1]!));
    kept.push(reference);
    expect((await reference.next()).event).toBe('ready');
    const first = await products(1);
    await products(349); // more than a replay chunk, for every stream

    // Each stream resumes from its own point: some from the first product, some later.
    const resumes: Array<{ stream: Stream; after: bigint }> = [];
    const opening = viewers.slice(0, USERS).flatMap((token, u) =>
      Array.from({ length: PER_USER }, async (_, k) => {
        const after = first + BigInt((u * PER_USER + k) * 7);
        const response = await open(token, after.toString());
        expect(response.status).toBe(200);
        const stream = messages(response);
        kept.push(stream);
        resumes.push({ stream, after });
        const ready = await stream.next(30_000);
        expect(ready).toEqual({ event: 'ready', data: { position: after.toString() } }); // nothing missed
      }),
    );
    // Writes go on while the streams catch up: they hear those too, after the replay.
    const [last] = await Promise.all([products(100), Promise.all(opening)]);

    const heard = await readUntil(reference, last!);
    const created = heard.filter((m) => (m.data as { type?: string })?.type === 'ProductCreated');
    expect(created).toHaveLength(450);
    expect(heard.map((m) => (m.data as { type: string }).type)).not.toContain('UserCreated');
    const all = heard.map((m) => BigInt(m.id!));
    for (const { stream, after } of resumes) {
      const got = await readUntil(stream, last!);
      // In order, none twice, none left out: exactly what the live reference heard after that point.
      expect(got.map((m) => m.id)).toEqual(all.filter((p) => p > after).map(String));
      expect(got).toEqual(heard.filter((m) => BigInt(m.id!) > after));
    }
  }, 300_000);

  it('refuses a stream beyond the overall cap with a 503 that says why and when to retry', async () => {
    // The 41 streams above are still open: 4 more fill the cap.
    const extra = [];
    for (let k = 0; k < CAP - kept.length; k++) {
      const response = await open(viewers[USERS]!);
      expect(response.status).toBe(200);
      extra.push(messages(response));
    }
    expect(kept.length + extra.length).toBe(CAP);
    const refused = await open(viewers[USERS + 1]!, '1');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(((await refused.json()) as { message: string }).message).toBe(
      `The server has as many live streams open as it serves (${CAP}). Try again in 30 seconds.`,
    );
    // One closing frees its place (once the server has seen it go).
    await extra.pop()!.close();
    let again = await open(viewers[USERS + 1]!);
    for (let i = 0; i < 50 && again.status === 503; i++) {
      await again.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await open(viewers[USERS + 1]!);
    }
    expect(again.status).toBe(200);
    kept.push(messages(again), ...extra);
  }, 120_000);
});

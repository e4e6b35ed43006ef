import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Body, openTestApp, TEST_STORAGES, type TestApp } from './testing/test-app.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefixes: string[] = [];
const redisFor = () => {
  const prefix = `bahi-send-now-${randomUUID()}`;
  prefixes.push(prefix);
  return { url: REDIS_URL, prefix };
};
afterAll(async () => {
  const redis = new Redis(REDIS_URL);
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
  }
  await redis.quit();
});

type Row = { job_id: string; recipient: string; status: string; error: string | null };

/** Send now as the screen sends it: a POST with an Idempotency-Key. */
async function sendNow(t: TestApp, jobId: string, key: string, token = t.token) {
  const res = await fetch(`${t.bahi.url}/api/reports/whatsapp/outbox/${jobId}/send`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
  });
  return { status: res.status, body: (await res.json()) as Body };
}

const outbox = async (t: TestApp): Promise<Row[]> => {
  await t.syncToHead();
  return (await t.call('GET', '/reports/whatsapp/outbox')).body.data;
};

/**
 * Send now in Settings > WhatsApp outbox (issue #25), with the queue and worker of distributed
 * mode (BullMQ on a real Redis): a failed send is sent again through the Cloud API transport
 * and its row changes in place; without a transport it stays in the outbox and says why.
 */
describe.each(TEST_STORAGES)('Send now from the WhatsApp outbox (%s, Redis)', (storage) => {
  let t: TestApp;
  let fake: Server;
  let refuse = true;
  const messages: string[] = [];
  let viewer = '';

  beforeAll(async () => {
    fake = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (req.url?.endsWith('/media')) return res.end(JSON.stringify({ id: 'media-1' }));
        messages.push(Buffer.concat(chunks).toString());
        if (refuse) {
          res.statusCode = 400;
          return res.end(JSON.stringify({ error: { message: 'Recipient cannot be reached', code: 131026 } }));
        }
        res.end(
          JSON.stringify({ messaging_product: 'whatsapp', messages: [{ id: `wamid.${messages.length}` }] }),
        );
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const port = (fake.address() as AddressInfo).port;
    t = await openTestApp({
      storage,
      reportsRedis: redisFor(),
      env: () => ({
        BAHI_WHATSAPP_TRANSPORT: 'cloud-api',
        WHATSAPP_TOKEN: 'token-1',
        WHATSAPP_PHONE_NUMBER_ID: '42',
        WHATSAPP_API_URL: `http://127.0.0.1:${port}/v21.0`,
      }),
    });
    await t.call('POST', '/masters/users', {
      name: 'Vik',
      email: 'vik@test.local',
      role: 'Viewer',
      is_active: true,
      password: 'viewer-password-1',
    });
    viewer = await t.login('vik@test.local', 'viewer-password-1');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((r) => fake?.close(() => r()));
  });

  it('sends a failed send again, once per key, in its row; a sent one is a 409', async () => {
    const failed = await t.call(
      'POST',
      '/reports/whatsapp',
      { recipientNumber: '+919876543210', reportName: 'stock' },
      viewer,
    );
    expect(failed.status).toBe(502);
    const [row] = await outbox(t);
    expect(row).toMatchObject({ recipient: '+919876543210', status: 'failed' });
    const id = row!.job_id;

    expect(await sendNow(t, id, 'k-viewer', viewer)).toMatchObject({
      status: 403,
      body: { message: 'Only an Admin can send a report from the WhatsApp outbox.' },
    });
    expect(await sendNow(t, 'f'.repeat(40), 'k-unknown')).toMatchObject({
      status: 404,
      body: { message: 'No WhatsApp send has that id.' },
    });

    refuse = false;
    const before = messages.length;
    const sent = await sendNow(t, id, 'k-1');
    expect(sent).toEqual({
      status: 200,
      body: { jobId: id, status: 'accepted', message: 'The report was sent to +919876543210 via WhatsApp.' },
    });
    expect(messages.length).toBe(before + 1);
    expect(messages.at(-1)).toContain('"to":"919876543210"');

    // The same request again (its answer was lost): the same answer, and nothing sent twice.
    expect(await sendNow(t, id, 'k-1')).toEqual(sent);
    expect(messages.length).toBe(before + 1);

    const rows = await outbox(t);
    expect(rows).toHaveLength(1);
    const admin = (await t.call('GET', '/masters/users?limit=-1')).body.data.find(
      (u: { role: string }) => u.role === 'Admin',
    );
    const vik = (await t.call('GET', '/masters/users?limit=-1')).body.data.find(
      (u: { name: string }) => u.name === 'Vik',
    );
    expect(rows[0]).toMatchObject({
      job_id: id,
      status: 'accepted',
      error: null,
      message_id: `wamid.${before + 1}`,
      requested_by: vik.id,
      recorded_by: admin.id,
      file_name: expect.stringMatching(/\.pdf$/),
    });

    expect(await sendNow(t, id, 'k-2')).toMatchObject({
      status: 409,
      body: { message: 'The report to +919876543210 is already sent.' },
    });
    expect(messages.length).toBe(before + 1);
  });
});

describe('Send now without WhatsApp settings (PGlite, Redis)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp({ reportsRedis: redisFor() });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('leaves the send in the outbox and says why, in the answer and on the row', async () => {
    const first = await t.call('POST', '/reports/whatsapp', {
      recipientNumber: '+447700900123',
      reportName: 'balances',
    });
    expect(first.status).toBe(200);
    const answer = await sendNow(t, first.body.jobId, 'k-1');
    expect(answer).toEqual({
      status: 200,
      body: {
        jobId: first.body.jobId,
        status: 'outbox',
        message:
          'The report to +447700900123 stays in the outbox: WhatsApp is not set up on this server, so it was not sent. Open the file and send it by hand.',
      },
    });
    const rows = await outbox(t);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      job_id: first.body.jobId,
      status: 'outbox',
      transport: 'outbox',
      error: expect.stringContaining('WhatsApp is not set up on this server'),
    });
    // Its file is still there to send by hand.
    const file = await fetch(`${t.bahi.url}/api/reports/files/${first.body.jobId}`, {
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    // Still not sent, so it can be tried again (another record, the same row).
    expect((await sendNow(t, first.body.jobId, 'k-2')).body.status).toBe('outbox');
    expect(await outbox(t)).toHaveLength(1);
  });
});

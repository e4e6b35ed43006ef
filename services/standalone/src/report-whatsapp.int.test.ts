import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from './testing/test-app.ts';

/**
 * WhatsApp through the whole app with the Cloud API transport, against a local fake that
 * refuses one recipient: the send answers 502, the log records it, and the requester's role
 * gets the notification.
 */
describe('WhatsApp by the Cloud API, end to end', () => {
  let t: TestApp;
  let fake: Server;
  const paths: string[] = [];

  beforeAll(async () => {
    fake = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        paths.push(`${req.method} ${req.url}`);
        const body = Buffer.concat(chunks).toString();
        res.setHeader('content-type', 'application/json');
        if (req.url?.endsWith('/media')) return res.end(JSON.stringify({ id: 'media-9' }));
        if (body.includes('"to":"15550000000"')) {
          res.statusCode = 400;
          return res.end(JSON.stringify({ error: { message: 'Recipient cannot be reached', code: 131026 } }));
        }
        res.end(JSON.stringify({ messaging_product: 'whatsapp', messages: [{ id: 'wamid.OK' }] }));
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const port = (fake.address() as AddressInfo).port;
    t = await openTestApp({
      env: () => ({
        BAHI_WHATSAPP_TRANSPORT: 'cloud-api',
        WHATSAPP_TOKEN: 'token-1',
        WHATSAPP_PHONE_NUMBER_ID: '42',
        WHATSAPP_API_URL: `http://127.0.0.1:${port}/v21.0`,
      }),
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((r) => fake.close(() => r()));
  });

  it('sends, and a refusal ends in a 502, a failed send record and a notification', async () => {
    const ok = await t.call('POST', '/reports/whatsapp', {
      recipientNumber: '+919876543210',
      reportName: 'stock',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('The report was sent to +919876543210 via WhatsApp.');
    expect(paths).toEqual(['POST /v21.0/42/media', 'POST /v21.0/42/messages']);

    const refused = await t.call('POST', '/reports/whatsapp', {
      recipientNumber: '+15550000000',
      reportName: 'stock',
    });
    expect(refused.status).toBe(502);
    expect(refused.body.message).toMatch(
      /^Failed to send report via WhatsApp\. .*Recipient cannot be reached/,
    );

    await t.syncToHead();
    const outbox = (await t.call('GET', '/reports/whatsapp/outbox')).body.data;
    expect(outbox.map((s: { recipient: string; status: string }) => [s.recipient, s.status])).toEqual([
      ['+15550000000', 'failed'],
      ['+919876543210', 'accepted'],
    ]);
    expect(outbox[1].message_id).toBe('wamid.OK');
    const { notifications } = (await t.call('GET', '/notifications')).body;
    expect(notifications).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'error',
          title: 'Failed to send report via WhatsApp.',
          message: expect.stringMatching(/\+15550000000.*Recipient cannot be reached/),
        }),
      ]),
    );
  });
});

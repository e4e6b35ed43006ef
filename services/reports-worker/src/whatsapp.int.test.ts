import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WhatsAppJob } from '@bahi/report-jobs';
import { inProcessReports } from '@bahi/report-jobs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memoryEffects } from './effects.ts';
import { processReportJob } from './process.ts';
import { cloudApiTransport, parseRecipient } from './whatsapp.ts';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A tiny stand-in for the WhatsApp Cloud API: records requests, answers from a script. */
let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let script: Array<{ status: number; body: unknown; headers?: Record<string, string> }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      seen.push({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks) });
      const scripted = path.endsWith('/messages') ? script.shift() : undefined;
      const answer =
        scripted ??
        (path.endsWith('/media')
          ? { status: 200, body: { id: `media-${seen.length}` } }
          : { status: 200, body: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.TEST1' }] } });
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  script = [];
});

const transport = () =>
  cloudApiTransport({ token: 'test-token', phoneNumberId: '1234567890', baseUrl, backoffMs: 10 });

const job = (recipient = '+919876543210'): WhatsAppJob => ({
  kind: 'whatsapp',
  recipient,
  requester: { id: '00000000-0000-4000-8000-000000000001', name: 'Asha', role: 'Manager' },
  position: '77',
  readAt: '2026-11-21T10:00:00.000Z',
  source: {
    report: 'ledger',
    params: { type: 'Agent', id: 'a1' },
    data: {
      entity: { name: 'Ravi' },
      openingBalance: '0.00',
      totalDebit: '10.00',
      totalCredit: '0.00',
      closingBalance: '10.00',
      transactions: [
        {
          date: '2026-01-01',
          particulars: 'Sale',
          type: 'Debit',
          debit: '10.00',
          credit: '0.00',
          balance: '10.00',
        },
      ],
    },
  },
});

function expectDocumentedShapes() {
  const media = seen.find((s) => s.path === '/v21.0/1234567890/media')!;
  expect(media.method).toBe('POST');
  expect(media.headers.authorization).toBe('Bearer test-token');
  expect(media.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  const form = media.body.toString('latin1');
  expect(form).toMatch(/name="messaging_product"\r\n\r\nwhatsapp\r\n/);
  expect(form).toMatch(/name="type"\r\n\r\napplication\/pdf\r\n/);
  expect(form).toMatch(
    /name="file"; filename="ledger_Agent_Ravi\.pdf"\r\nContent-Type: application\/pdf\r\n\r\n%PDF-/,
  );
  const message = seen.filter((s) => s.path === '/v21.0/1234567890/messages').at(-1)!;
  expect(message.method).toBe('POST');
  expect(message.headers['content-type']).toBe('application/json');
  expect(JSON.parse(message.body.toString())).toEqual({
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: '919876543210',
    type: 'document',
    document: {
      id: expect.stringMatching(/^media-/),
      filename: 'ledger_Agent_Ravi.pdf',
      caption: 'Ledger: Ravi (Agent) - Bahi',
    },
  });
}

describe('WhatsApp Cloud API transport against a local fake', () => {
  it('uploads the document, then sends a document message; the send is recorded with position and SHA-256', async () => {
    const reports = inProcessReports();
    const effects = memoryEffects();
    const result = await processReportJob(
      { id: 'job-ok', data: job(), attemptsMade: 0, attempts: 5 },
      { files: reports.files, effects, transport: transport(), businessName: 'Bahi' },
    );
    expectDocumentedShapes();
    const file = await reports.files.get('job-ok');
    expect(file?.sha256).toBe(createHash('sha256').update(file!.body).digest('hex'));
    expect(result.sha256).toBe(file?.sha256);
    expect(effects.sends).toEqual([
      expect.objectContaining({
        job_id: 'job-ok',
        status: 'accepted',
        transport: 'cloud-api',
        message_id: 'wamid.TEST1',
        recipient: '+919876543210',
        read_position: '77',
        sha256: file?.sha256,
      }),
    ]);
    expect(effects.notices).toEqual([]);

    // Run again (a retry after a crash past the send): the message is not sent twice.
    const before = seen.length;
    await processReportJob(
      { id: 'job-ok', data: job(), attemptsMade: 1, attempts: 5 },
      { files: reports.files, effects, transport: transport(), businessName: 'Bahi' },
    );
    expect(seen.filter((s) => s.path.endsWith('/messages')).length).toBe(1);
    expect(seen.length).toBe(before);
    expect(effects.sends).toHaveLength(1);
  });

  it('backs off on 429 (and 5xx) and then succeeds', async () => {
    script = [
      { status: 429, body: { error: { message: 'Rate limit hit', code: 130429 } } },
      { status: 503, body: { error: { message: 'Service unavailable' } } },
    ];
    const result = await transport().send({
      to: '+919876543210',
      fileName: 'ledger_Agent_Ravi.pdf',
      caption: 'Ledger: Ravi (Agent) - Bahi',
      contentType: 'application/pdf',
      body: Buffer.from('%PDF-1.7 test'),
    });
    expect(result).toEqual({ transport: 'cloud-api', status: 'accepted', messageId: 'wamid.TEST1' });
    expect(seen.filter((s) => s.path.endsWith('/messages'))).toHaveLength(3);
    expectDocumentedShapes();
  });

  it('a permanent refusal fails the job at once, records it and ends in a notification', async () => {
    script = [
      {
        status: 400,
        body: { error: { message: 'Recipient phone number not in allowed list', code: 131030 } },
      },
    ];
    const reports = inProcessReports();
    const effects = memoryEffects();
    reports.queue.start((j) =>
      processReportJob(j, { files: reports.files, effects, transport: transport(), businessName: 'Bahi' }),
    );
    await reports.queue.add('job-refused', job());
    await reports.queue.idle();
    const state = await reports.queue.state('job-refused');
    expect(state.state).toBe('failed');
    expect(state.failedReason).toMatch(/not in allowed list/);
    // Not retried: one message call.
    expect(seen.filter((s) => s.path.endsWith('/messages'))).toHaveLength(1);
    expect(effects.sends).toEqual([
      expect.objectContaining({
        job_id: 'job-refused',
        status: 'failed',
        error: expect.stringMatching(/131030/),
      }),
    ]);
    expect(effects.notices).toEqual([
      expect.objectContaining({
        audience: 'Manager',
        type: 'error',
        title: 'Failed to send report via WhatsApp.',
        message: expect.stringMatching(
          /^The ledger Asha asked to send to \+919876543210 did not go: .*not in allowed list/,
        ),
      }),
    ]);
    await reports.close();
  });
});

describe('recipient numbers', () => {
  it('accepts E.164 with a country code and refuses the rest', () => {
    expect(parseRecipient('+91 98765-43210')).toBe('+919876543210');
    expect(parseRecipient('+14155550123')).toBe('+14155550123');
    for (const bad of ['9876543210', '09876543210', '+0123456789', '+91', 'abc', '', 42, null])
      expect(parseRecipient(bad)).toBeUndefined();
  });
});

import { REPORT_SENDS_STREAM } from '@bahi/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandTestApp, commandTestApp } from './testing/command-app.ts';

const send = (status: 'outbox' | 'failed', jobId: string) => ({
  type: 'ReportSendRecorded',
  data: {
    job_id: jobId,
    report: 'stock',
    params: {},
    recipient: '+919876543210',
    transport: 'outbox',
    status,
    message_id: null,
    error: null,
    file_name: 'stock.pdf',
    sha256: 'a'.repeat(64),
    bytes: 10,
    read_position: '1',
    read_at: '2026-11-24T10:00:00.000Z',
    requested_by: '00000000-0000-4000-8000-000000000001',
  },
  metadata: { schemaVersion: 1 },
});

/** Marking an outbox send as sent by hand (issue #18), where the append's expected version loses. */
describe('POST /api/reports/whatsapp/outbox/:jobId/sent', () => {
  let t: CommandTestApp;
  beforeAll(async () => {
    t = await commandTestApp({ projector: false });
    await t.eventStore.append(REPORT_SENDS_STREAM, [send('outbox', 'job-1')] as never, 'any');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 409 when another send is recorded between its read and its append', async () => {
    const append = t.eventStore.append.bind(t.eventStore);
    let raced = false;
    t.eventStore.append = (async (stream: string, events: never, expected: never) => {
      if (stream === REPORT_SENDS_STREAM && !raced) {
        raced = true; // the worker records another send first
        await append(REPORT_SENDS_STREAM, [send('failed', 'job-2')] as never, 'any');
      }
      return append(stream, events, expected);
    }) as typeof t.eventStore.append;
    const res = await t.call('POST', '/api/reports/whatsapp/outbox/job-1/sent', t.adminToken);
    t.eventStore.append = append;
    expect(raced).toBe(true);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'The outbox changed meanwhile; look again and retry.' });
    const again = await t.call('POST', '/api/reports/whatsapp/outbox/job-1/sent', t.adminToken);
    expect(again.statusCode, again.body).toBe(200);
  });
});

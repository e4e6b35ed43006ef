import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from './testing/test-app.ts';

/**
 * The WhatsApp outbox without a transport (the default): the send's message names the screen,
 * and an Admin who sent the file by hand marks it sent (issue #18).
 */
describe('the WhatsApp outbox, marked sent by an Admin', () => {
  let t: TestApp;
  let viewer = '';

  beforeAll(async () => {
    t = await openTestApp();
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
  });

  it('keeps a send in the outbox, then records it sent by hand, once, in its place', async () => {
    const first = await t.call('POST', '/reports/whatsapp', {
      recipientNumber: '+919876543210',
      reportName: 'stock',
    });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(
      'The report was put in the WhatsApp outbox for +919876543210; an Admin sends it from Settings > WhatsApp outbox.',
    );
    const second = await t.call('POST', '/reports/whatsapp', {
      recipientNumber: '+447700900123',
      reportName: 'balances',
    });
    expect(second.status).toBe(200);

    let outbox = (await t.call('GET', '/reports/whatsapp/outbox')).body.data;
    expect(outbox.map((s: { recipient: string; status: string }) => [s.recipient, s.status])).toEqual([
      ['+447700900123', 'outbox'],
      ['+919876543210', 'outbox'],
    ]);

    const asViewer = await t.call('POST', `/reports/whatsapp/outbox/${first.body.jobId}/sent`, {}, viewer);
    expect(asViewer).toMatchObject({
      status: 403,
      body: { message: 'Only an Admin can mark a WhatsApp send as sent.' },
    });
    expect((await t.call('POST', `/reports/whatsapp/outbox/${'f'.repeat(40)}/sent`, {})).status).toBe(404);

    const marked = await t.call('POST', `/reports/whatsapp/outbox/${first.body.jobId}/sent`, {});
    expect(marked).toMatchObject({
      status: 200,
      body: { jobId: first.body.jobId, message: 'The report to +919876543210 is marked as sent.' },
    });
    outbox = (await t.call('GET', '/reports/whatsapp/outbox')).body.data;
    expect(outbox.map((s: { recipient: string; status: string }) => [s.recipient, s.status])).toEqual([
      ['+447700900123', 'outbox'],
      ['+919876543210', 'sent'],
    ]);
    const admin = (await t.call('GET', '/masters/users?limit=-1')).body.data.find(
      (u: { role: string }) => u.role === 'Admin',
    );
    expect(outbox[1]).toMatchObject({
      transport: 'outbox',
      report: 'stock',
      file_name: expect.stringMatching(/\.pdf$/),
      requested_by: admin.id,
      recorded_by: admin.id,
      error: null,
      link: `/api/reports/files/${first.body.jobId}`,
    });

    const again = await t.call('POST', `/reports/whatsapp/outbox/${first.body.jobId}/sent`, {});
    expect(again).toMatchObject({
      status: 409,
      body: { message: 'The report to +919876543210 is already sent.' },
    });
  });
});

import { setToken } from '@bahi/ui';
import { ADMIN, mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboxEntry } from './api.ts';
import { WhatsAppOutbox } from './whatsapp-outbox-page.tsx';

const entry = (over: Partial<OutboxEntry>): OutboxEntry => ({
  job_id: 'a'.repeat(40),
  report: 'stock',
  params: {},
  recipient: '+919876543210',
  transport: 'outbox',
  status: 'outbox',
  message_id: null,
  error: null,
  file_name: 'stock_report.pdf',
  sha256: '0'.repeat(64),
  bytes: 1234,
  read_position: '42',
  read_at: '2026-11-24T08:00:00.000Z',
  requested_by: ADMIN.id,
  recorded_at: '2026-11-24T08:00:01.000Z',
  recorded_by: ADMIN.id,
  link: `/api/reports/files/${'a'.repeat(40)}`,
  ...over,
});
const users = { data: [ADMIN], totalItems: 1 };

let saved: { name: string }[] = [];
beforeEach(() => {
  saved = [];
  setToken('tok-outbox');
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:bahi/1'), revokeObjectURL: vi.fn() }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download });
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setToken(null);
});

describe('WhatsApp outbox', () => {
  it('lists each send newest first as the server gives them: recipient, report, when, who, status', async () => {
    const failed = entry({
      job_id: 'b'.repeat(40),
      report: 'ledger',
      recipient: '+447700900123',
      status: 'failed',
      transport: 'cloud-api',
      error: 'WhatsApp refused the message: bad number',
      file_name: 'ledger_Asha.pdf',
      requested_by: 'gone-user',
    });
    mockApi((call) => {
      if (call.path === '/reports/whatsapp/outbox') return { body: { data: [failed, entry({})] } };
      if (call.path === '/masters/users') return { body: users };
    });
    renderScreen('/settings/whatsapp-outbox', <WhatsAppOutbox />);
    expect(await screen.findByRole('heading', { name: 'WhatsApp outbox' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'WhatsApp outbox' });
    await within(table).findByText('+919876543210');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('+447700900123');
    expect(rows[0]!.textContent).toContain('Ledger');
    expect(rows[0]!.textContent).toContain('Failed');
    expect(rows[0]!.textContent).toContain('WhatsApp refused the message: bad number');
    expect(rows[0]!.textContent).toContain('Unknown user');
    expect(rows[1]!.textContent).toContain('Stock');
    expect(rows[1]!.textContent).toContain('stock_report.pdf');
    expect(rows[1]!.textContent).toContain('In outbox');
    await waitFor(() => expect(rows[1]!.textContent).toContain('Asha Admin'));
  });

  it('opens a file through its link with the session token and saves it under the server’s name', async () => {
    const api = mockApi((call) => {
      if (call.path === '/reports/whatsapp/outbox') return { body: { data: [entry({})] } };
      if (call.path === '/masters/users') return { body: users };
      if (call.path === `/reports/files/${'a'.repeat(40)}`)
        return {
          file: '%PDF-1.7',
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': 'attachment; filename="stock_report.pdf"',
          },
        };
    });
    renderScreen('/settings/whatsapp-outbox', <WhatsAppOutbox />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open file stock_report.pdf' }));
    await waitFor(() => expect(saved).toEqual([{ name: 'stock_report.pdf' }]));
    const fileCall = api.fetch.mock.calls.find(([url]) => String(url).includes('/reports/files/'));
    expect((fileCall?.[1]?.headers as Record<string, string>).authorization).toBe('Bearer tok-outbox');
  });

  it('says why a file cannot be opened, in place', async () => {
    mockApi((call) => {
      if (call.path === '/reports/whatsapp/outbox') return { body: { data: [entry({})] } };
      if (call.path === '/masters/users') return { body: users };
      if (call.path.startsWith('/reports/files/'))
        return {
          status: 404,
          body: { message: 'That report file is not available (files are kept for a day).' },
        };
    });
    renderScreen('/settings/whatsapp-outbox', <WhatsAppOutbox />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open file stock_report.pdf' }));
    expect(
      await screen.findByText('That report file is not available (files are kept for a day).'),
    ).toBeTruthy();
    expect(saved).toEqual([]);
  });

  it('marks a send in the outbox as sent after a confirmation, and shows a refusal in place', async () => {
    let current = [entry({}), entry({ job_id: 'c'.repeat(40), status: 'accepted', transport: 'cloud-api' })];
    const api = mockApi((call) => {
      if (call.path === '/reports/whatsapp/outbox') return { body: { data: current } };
      if (call.path === '/masters/users') return { body: users };
      if (call.method === 'POST' && call.path === `/reports/whatsapp/outbox/${'a'.repeat(40)}/sent`) {
        current = [{ ...current[0]!, status: 'sent', recorded_by: ADMIN.id }, current[1]!];
        return {
          body: {
            jobId: 'a'.repeat(40),
            position: '9',
            message: 'The report to +919876543210 is marked as sent.',
          },
        };
      }
    });
    renderScreen('/settings/whatsapp-outbox', <WhatsAppOutbox />);
    // Only a send still waiting (outbox, or failed) can be marked.
    expect(await screen.findAllByRole('button', { name: /^Mark sent to / })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Mark sent to +919876543210' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Did you send stock_report.pdf to +919876543210 yourself?');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Mark sent' }));
    expect(await screen.findByText('The report to +919876543210 is marked as sent.')).toBeTruthy();
    expect(await screen.findByText('Sent by hand')).toBeTruthy();
    expect(screen.getByText('by Asha Admin')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Mark sent to / })).toBeNull();
    cleanup();

    mockApi((call) => {
      if (call.path === '/reports/whatsapp/outbox') return { body: { data: [entry({})] } };
      if (call.path === '/masters/users') return { body: users };
      if (call.method === 'POST')
        return { status: 409, body: { message: 'The report to +919876543210 is already sent.' } };
    });
    renderScreen('/settings/whatsapp-outbox', <WhatsAppOutbox />);
    fireEvent.click(await screen.findByRole('button', { name: 'Mark sent to +919876543210' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Mark sent' }),
    );
    expect(await screen.findByText('The report to +919876543210 is already sent.')).toBeTruthy();
  });

  it('sends a waiting send now; the answer and the row say whether it went', async () => {
    const outboxMessage =
      'The report to +919876543210 stays in the outbox: WhatsApp is not set up on this server, so it was not sent. Open the file and send it by hand.';
    let current = [entry({}), entry({ job_id: 'c'.repeat(40), status: 'accepted', transport: 'cloud-api' })];
    const api = mockApi((call) => {
      if (call.path === '/reports/whatsapp/outbox') return { body: { data: current } };
      if (call.path === '/masters/users') return { body: users };
      if (call.method === 'POST' && call.path === `/reports/whatsapp/outbox/${'a'.repeat(40)}/send`) {
        current = [{ ...current[0]!, error: 'WhatsApp is not set up on this server.' }, current[1]!];
        return { body: { jobId: 'a'.repeat(40), status: 'outbox', message: outboxMessage } };
      }
    });
    renderScreen('/settings/whatsapp-outbox', <WhatsAppOutbox />);
    // Only a send still waiting (outbox, or failed) can be sent now.
    expect(await screen.findAllByRole('button', { name: /^Send now to / })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Send now to +919876543210' }));
    expect(await screen.findByText(outboxMessage)).toBeTruthy();
    expect(await screen.findByText('WhatsApp is not set up on this server.')).toBeTruthy();
    const post = api.calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe(`/reports/whatsapp/outbox/${'a'.repeat(40)}/send`);
    cleanup();

    mockApi((call) => {
      if (call.path === '/reports/whatsapp/outbox') return { body: { data: [entry({ status: 'failed' })] } };
      if (call.path === '/masters/users') return { body: users };
      if (call.method === 'POST')
        return {
          status: 502,
          body: { message: 'Failed to send report via WhatsApp. Recipient cannot be reached' },
        };
    });
    renderScreen('/settings/whatsapp-outbox', <WhatsAppOutbox />);
    fireEvent.click(await screen.findByRole('button', { name: 'Send now to +919876543210' }));
    expect(
      await screen.findByText('Failed to send report via WhatsApp. Recipient cannot be reached'),
    ).toBeTruthy();
  });

  it('shows the empty outbox, and a failure with the server’s message or the fallback', async () => {
    mockApi((call) => (call.path === '/reports/whatsapp/outbox' ? { body: { data: [] } } : { body: users }));
    renderScreen('/settings/whatsapp-outbox', <WhatsAppOutbox />);
    expect(await screen.findByText('The outbox is empty.')).toBeTruthy();
    cleanup();

    mockApi((call) =>
      call.path === '/reports/whatsapp/outbox'
        ? { status: 403, body: { message: 'Only an Admin can see the WhatsApp outbox.' } }
        : { body: users },
    );
    renderScreen('/settings/whatsapp-outbox', <WhatsAppOutbox />);
    expect(await screen.findByText('Only an Admin can see the WhatsApp outbox.')).toBeTruthy();
    cleanup();

    mockApi((call) =>
      call.path === '/reports/whatsapp/outbox' ? { status: 500, body: {} } : { body: users },
    );
    renderScreen('/settings/whatsapp-outbox', <WhatsAppOutbox />);
    expect(await screen.findByText('Failed to fetch the WhatsApp outbox.')).toBeTruthy();
  });
});

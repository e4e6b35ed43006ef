import { setToken } from '@bahi/ui';
import { mockApi, renderScreen } from '@bahi/ui/testing';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DownloadButtons,
  NOTIFICATION_EVENT,
  POLL_MS,
  recipientOf,
  WhatsAppButton,
  WhatsAppDialog,
} from './report-files.tsx';

const PDF = {
  file: '%PDF-1.7 a report',
  headers: {
    'content-type': 'application/pdf',
    'content-disposition': `attachment; filename="stock_report__.pdf"; filename*=UTF-8''stock_report_%E2%82%B9%20%E0%A4%97.pdf`,
  },
};
const AT = { asOf: '2026-11-20', knownAt: '2026-11-21T10:00:00.000Z' };

/** What the temporary <a download> was asked to save. */
let saved: { name: string; href: string }[] = [];
/** The intervals the screen set (the 202 poll), to run them by hand. */
let intervals: { fn: () => void; ms: number }[] = [];

beforeEach(() => {
  saved = [];
  intervals = [];
  setToken('tok-reports');
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:bahi/1'), revokeObjectURL: vi.fn() }),
  );
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.href });
  });
  const realSetInterval = globalThis.setInterval;
  vi.spyOn(globalThis, 'setInterval').mockImplementation(((fn: () => void, ms?: number) => {
    intervals.push({ fn, ms: ms ?? 0 });
    return realSetInterval(() => {}, 1_000_000);
  }) as typeof setInterval);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setToken(null);
});

describe('DownloadButtons (spec section 7)', () => {
  it('fetches the file with the token and the filters unchanged, saves it under the server’s exact name', async () => {
    const api = mockApi((call) => (call.path === '/reports/stock/download/pdf' ? PDF : undefined));
    renderScreen(
      '/',
      <DownloadButtons path="/reports/stock/download" params={{ ...AT, city_id: '' }} fileName="stock" />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await screen.findByText('Download started successfully!');
    expect(saved).toEqual([{ name: 'stock_report_₹ ग.pdf', href: 'blob:bahi/1' }]);
    const call = api.calls[0]!;
    expect(Object.fromEntries(call.query)).toEqual(AT); // the empty city left out, time travel kept
    const init = api.fetch.mock.calls[0]![1] as RequestInit;
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer tok-reports');
  });

  it('names the file after the report when the server gives no name', async () => {
    mockApi(() => ({ file: 'x', headers: { 'content-type': 'application/vnd.ms-excel' } }));
    renderScreen('/', <DownloadButtons path="/reports/balances/download" fileName="balances_report" />);
    fireEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    await screen.findByText('Download started successfully!');
    expect(saved[0]!.name).toBe('balances_report.xlsx');
  });

  it('shows the server’s refusal, else “Failed to download {format} report.”', async () => {
    let answer: { status: number; body?: unknown } = {
      status: 503,
      body: { message: 'Report files are unavailable right now.' },
    };
    mockApi(() => answer);
    renderScreen('/', <DownloadButtons path="/reports/stock/download" />);
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Report files are unavailable right now.',
    );
    answer = { status: 500, body: {} };
    fireEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('Failed to download xlsx report.'),
    );
    expect(saved).toEqual([]);
    expect(screen.queryByText('Download started successfully!')).toBeNull();
  });

  it('says a big file is still being prepared (202) and offers it when its “Report ready” notification comes', async () => {
    const link = '/api/reports/files/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    let ready = false;
    const api = mockApi((call) => {
      if (call.path === '/reports/stock/download/pdf')
        return {
          status: 202,
          body: {
            message: 'You will be notified when it is ready to download.',
            jobId: 'a'.repeat(40),
            link,
          },
        };
      if (call.path === '/reports/files/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')
        return ready ? PDF : { status: 404, body: { message: 'That report file is not available.' } };
      return undefined;
    });
    renderScreen('/', <DownloadButtons path="/reports/stock/download" />);
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await screen.findByText(
      'You will be notified when it is ready to download. The PDF file will be offered here when it is ready.',
    );
    expect(saved).toEqual([]);
    // Another report's notice is not this one.
    ready = true;
    act(() => {
      window.dispatchEvent(
        new CustomEvent(NOTIFICATION_EVENT, {
          detail: { title: 'Report ready', link: '/api/reports/files/other' },
        }),
      );
    });
    expect(api.calls.some((c) => c.path.startsWith('/reports/files/'))).toBe(false);
    act(() => {
      window.dispatchEvent(new CustomEvent(NOTIFICATION_EVENT, { detail: { title: 'Report ready', link } }));
    });
    const offer = await screen.findByRole('button', { name: 'Download stock_report_₹ ग.pdf' });
    expect(api.calls.at(-1)!.path).toBe('/reports/files/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    fireEvent.click(offer);
    expect(saved).toEqual([{ name: 'stock_report_₹ ग.pdf', href: 'blob:bahi/1' }]);
    await screen.findByText('Download started successfully!');
    expect(screen.queryByRole('button', { name: /Download stock_report/ })).toBeNull();
  });

  it('asks for a pending file every few seconds too (the stream may be closed): 404 until it is stored', async () => {
    let ready = false;
    const api = mockApi((call) => {
      if (call.path.endsWith('/download/xlsx'))
        return {
          status: 202,
          body: { message: '', jobId: 'b'.repeat(40), link: `/api/reports/files/${'b'.repeat(40)}` },
        };
      if (call.path.startsWith('/reports/files/'))
        return ready
          ? {
              file: 'xlsx',
              headers: { 'content-disposition': 'attachment; filename="payments_report.xlsx"' },
            }
          : { status: 404, body: { message: 'That report file is not available.' } };
      return undefined;
    });
    renderScreen('/', <DownloadButtons path="/reports/payments/download" params={{ city_id: 'c1' }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    // No message from the server: the screen's own words.
    await screen.findByText(
      'The Excel report is still being prepared; it will be offered here when it is ready.',
    );
    const poll = intervals.find((i) => i.ms === POLL_MS)!;
    expect(poll).toBeDefined();
    await act(async () => poll.fn());
    await waitFor(() =>
      expect(api.calls.filter((c) => c.path.startsWith('/reports/files/'))).toHaveLength(1),
    );
    expect(screen.queryByRole('button', { name: /Download payments_report/ })).toBeNull();
    ready = true;
    await act(async () => poll.fn());
    fireEvent.click(await screen.findByRole('button', { name: 'Download payments_report.xlsx' }));
    expect(saved[0]!.name).toBe('payments_report.xlsx');
  });

  it('compact: one Download menu with PDF and Excel (the day-wise download control)', async () => {
    const api = mockApi(() => PDF);
    renderScreen(
      '/',
      <DownloadButtons compact path="/reports/daywise-report/download" params={{ city_id: 'c1' }} />,
    );
    // The menu loads with the first compact control: its trigger opens a menu.
    const trigger = await waitFor(() => {
      const b = screen.getByRole('button', { name: 'Download' });
      expect(b.getAttribute('aria-haspopup')).toBe('menu');
      return b;
    });
    fireEvent.click(trigger);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Excel' }));
    await screen.findByText('Download started successfully!');
    expect(api.calls[0]!.path).toBe('/reports/daywise-report/download/xlsx');
    expect(api.calls[0]!.query.get('city_id')).toBe('c1');
  });
});

describe('WhatsApp (spec sections 5 and 7)', () => {
  const number = () => screen.getByLabelText(/WhatsApp Number/) as HTMLInputElement;
  const send = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;

  it('takes a number only with its country code, as the server does', () => {
    expect(recipientOf('+91 98765-43210')).toBe('+919876543210');
    expect(recipientOf('+14155550123')).toBe('+14155550123');
    for (const bad of ['9876543210', '09876543210', '+0123456789', '+91', 'abc', ''])
      expect(recipientOf(bad)).toBeUndefined();
  });

  it('keeps Send disabled while the number is empty and refuses one without a country code', async () => {
    const api = mockApi(() => ({ body: { message: 'sent' } }));
    renderScreen('/', <WhatsAppDialog open reportName="stock" data={AT} onClose={() => {}} />);
    await screen.findByText('Send via WhatsApp');
    expect(send().disabled).toBe(true);
    fireEvent.change(number(), { target: { value: '   ' } });
    expect(send().disabled).toBe(true);
    fireEvent.change(number(), { target: { value: '9876543210' } });
    expect(send().disabled).toBe(false);
    fireEvent.click(send());
    await screen.findByText('Enter the number with its country code, e.g. +919876543210.');
    expect(api.calls).toHaveLength(0);
  });

  it('sends the report name and its filters unchanged, and shows the server’s message', async () => {
    const onClose = vi.fn();
    const api = mockApi((call) =>
      call.path === '/reports/whatsapp'
        ? { body: { message: 'The report was put in the WhatsApp outbox for +919876543210.', jobId: 'j' } }
        : undefined,
    );
    renderScreen(
      '/',
      <WhatsAppDialog
        open
        reportName="ledger"
        data={{ type: 'Funder', id: 'f1', ...AT, startDate: '' }}
        onClose={onClose}
      />,
    );
    await screen.findByText('Send via WhatsApp');
    fireEvent.change(number(), { target: { value: '+91 98765 43210' } });
    fireEvent.click(send());
    await screen.findByText('The report was put in the WhatsApp outbox for +919876543210.');
    expect(onClose).toHaveBeenCalled();
    expect(api.calls[0]!.method).toBe('POST');
    expect(api.calls[0]!.body).toEqual({
      recipientNumber: '+919876543210',
      reportName: 'ledger',
      data: { type: 'Funder', id: 'f1', ...AT },
    });
  });

  it('shows the server’s refusal in the dialog, else “Failed to send report via WhatsApp.”', async () => {
    let answer: { status: number; body: unknown } = {
      status: 502,
      body: { message: 'Failed to send report via WhatsApp. The number is not on WhatsApp.' },
    };
    mockApi(() => answer);
    const onClose = vi.fn();
    renderScreen('/', <WhatsAppDialog open reportName="stock" onClose={onClose} />);
    await screen.findByText('Send via WhatsApp');
    fireEvent.change(number(), { target: { value: '+919876543210' } });
    fireEvent.click(send());
    expect((await screen.findByRole('alert')).textContent).toContain('The number is not on WhatsApp.');
    answer = { status: 500, body: {} };
    fireEvent.click(send());
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Failed to send report via WhatsApp.'),
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('WhatsAppButton opens the dialog', async () => {
    mockApi(() => undefined);
    renderScreen('/', <WhatsAppButton reportName="stock" data={AT} />);
    fireEvent.click(screen.getByRole('button', { name: 'WhatsApp' }));
    await screen.findByText('Send via WhatsApp');
    expect(number().value).toBe('');
  });
});

import { formatQuantity } from '@bahi/ui';
import { showMoment } from '@bahi/ui/screen';
import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { godownsOf } from './api.ts';
import { StockPage } from './stock-page.tsx';

const G1 = 'b0000000-0000-4000-8000-000000000001';
const G2 = 'b0000000-0000-4000-8000-000000000002';
const G3 = 'b0000000-0000-4000-8000-000000000003';
const row = (godown_id: string, product_name: string, quantity: string) => ({
  godown_id,
  product_id: `p-${product_name}`,
  product_name,
  quantity,
});

// Two godowns named 'Main' share one key; the server tells them apart by godown_id.
const STOCK = {
  Bhiwandi: [row(G1, 'Rice', '1234567.1234'), row(G1, 'Sugar', '0.5')],
  Main: [row(G2, 'Rice', '12.5000'), row(G3, 'Wheat', '-2.25')],
};

describe('Stock Report (spec section 2)', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('shows quantities as exact text at 4 decimals', () => {
    expect(formatQuantity('12.5')).toBe('12.5000');
    expect(formatQuantity('1234567.1234')).toBe('12,34,567.1234');
    expect(formatQuantity('123456789012345678.00005')).toBe('1,23,45,67,89,01,23,45,678.0001');
    expect(formatQuantity('-2.25')).toBe('-2.2500');
    expect(formatQuantity('0')).toBe('0.0000');
  });

  it('makes one card per godown, two godowns of one name apart', () => {
    const cards = godownsOf(STOCK);
    expect(cards.map((c) => [c.name, c.godownId, c.rows.length])).toEqual([
      ['Bhiwandi', G1, 2],
      ['Main', G2, 1],
      ['Main', G3, 1],
    ]);
  });

  it('lists each godown’s products and quantities in a card', async () => {
    mockApi((call) => (call.path === '/reports/stock' ? { body: STOCK } : undefined));
    renderScreen('/reports/stock', <StockPage />);
    expect(screen.getByRole('heading', { name: 'Stock Report' })).toBeTruthy();
    // The page is a region too (labelled by its title); the cards are labelled by their godown.
    await screen.findAllByText('Rice');
    const cards = screen
      .getAllByRole('region')
      .filter((r) => r.hasAttribute('aria-label') && r.getAttribute('aria-label') !== 'Time travel');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['Bhiwandi', 'Main', 'Main']);
    const lines = (card: HTMLElement) =>
      within(card)
        .getAllByRole('row')
        .slice(1)
        .map((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.textContent),
        );
    expect(lines(cards[0]!)).toEqual([
      ['Rice', '12,34,567.1234'],
      ['Sugar', '0.5000'],
    ]);
    expect(lines(cards[1]!)).toEqual([['Rice', '12.5000']]);
    expect(lines(cards[2]!)).toEqual([['Wheat', '-2.2500']]);
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download Excel' })).toBeTruthy();
  });

  it('says when no godown holds stock', async () => {
    mockApi((call) => (call.path === '/reports/stock' ? { body: {} } : undefined));
    renderScreen('/reports/stock', <StockPage />);
    await screen.findByText('No stock available in any godown.');
  });

  it('shows the server’s message or “Failed to fetch stock report.”', async () => {
    mockApi(() => ({ status: 500, body: {} }));
    renderScreen('/reports/stock', <StockPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch stock report.');
    expect(screen.queryByText('No stock available in any godown.')).toBeNull();
  });

  it('sends the stock report by WhatsApp with its filters', async () => {
    const api = mockApi((call) => {
      if (call.path === '/reports/stock') return { body: STOCK };
      if (call.path === '/reports/whatsapp')
        return { body: { message: 'The report was sent to +971501234567 via WhatsApp.' } };
      return undefined;
    });
    renderScreen('/reports/stock?asOf=2026-11-20', <StockPage />);
    await screen.findAllByText('Rice');
    expect(api.calls.find((c) => c.path === '/reports/stock')!.query.get('asOf')).toBe('2026-11-20');
    fireEvent.click(screen.getByRole('button', { name: 'WhatsApp' }));
    const number = await screen.findByLabelText(/WhatsApp Number/);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(number, { target: { value: '+971501234567' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('The report was sent to +971501234567 via WhatsApp.');
    const sent = api.calls.find((c) => c.path === '/reports/whatsapp')!;
    expect(sent.body).toEqual({
      recipientNumber: '+971501234567',
      reportName: 'stock',
      data: { asOf: '2026-11-20' },
    });
  });

  it('downloads the stock file', async () => {
    const api = mockApi((call) => {
      if (call.path === '/reports/stock') return { body: STOCK };
      if (call.path === '/reports/stock/download/xlsx')
        return { file: 'x', headers: { 'content-disposition': 'attachment; filename="stock_report.xlsx"' } };
      return undefined;
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderScreen('/reports/stock', <StockPage />);
    await screen.findAllByText('Rice');
    fireEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    await screen.findByText('Download started successfully!');
    await waitFor(() => expect(saved).toEqual(['stock_report.xlsx']));
    expect(api.calls.at(-1)!.path).toBe('/reports/stock/download/xlsx');
  });

  it('says when and by whom the period of its date was closed; restated since, offers the compare', async () => {
    const close = {
      position: '42',
      up_to: '2026-10-31',
      closed_at: '2026-11-01T09:30:00.000Z',
      closed_by: { id: 'u1', name: 'Asha' },
      digest: 'ab12cd34ef56'.padEnd(64, '0'),
      chain_head: null,
      now: { digest: 'ab12cd34ef56'.padEnd(64, '0'), same: true, reopened: false },
    };
    let restated = false;
    const api = mockApi((call) => {
      if (call.path === '/reports/stock') return { body: STOCK };
      if (call.path === '/books/closed')
        return {
          body: {
            close: restated
              ? { ...close, now: { digest: 'f'.repeat(64), same: false, reopened: true } }
              : close,
          },
        };
      return undefined;
    });
    const view = renderScreen('/reports/stock?asOf=2026-10-31', <StockPage />);
    const note = await screen.findByRole('region', { name: 'Closed period' });
    expect(note.textContent).toContain(`Closed on ${showMoment(close.closed_at)} by Asha`);
    expect(note.textContent).toContain(
      'The books up to 31 Oct 2026 were closed; these figures are exactly the closed ones.',
    );
    expect(note.textContent).toContain('Digest AB12-CD34-EF56');
    expect(within(note).queryByRole('button')).toBeNull();
    const asked = api.calls.find((c) => c.path === '/books/closed')!;
    expect(Object.fromEntries(asked.query)).toEqual({ asOf: '2026-10-31' });
    view.unmount();

    restated = true;
    renderScreen('/reports/stock?asOf=2026-10-31', <StockPage />);
    const changed = await screen.findByRole('region', { name: 'Closed period' });
    await within(changed).findByText(/have changed since: the books were reopened and restated/);
    fireEvent.click(within(changed).getByRole('button', { name: 'Compare with the close' }));
    // The compare is time travel's: the report as recorded at the close's moment.
    await waitFor(() =>
      expect(
        api.calls.some((c) => c.path === '/reports/stock' && c.query.get('knownAt') === close.closed_at),
      ).toBe(true),
    );
    await within(screen.getByRole('region', { name: 'Closed period' })).findByText(
      /Marked: what changed since the close/,
    );
  });

  it('shows no note for today’s stock (no date asked)', async () => {
    const api = mockApi((call) => (call.path === '/reports/stock' ? { body: STOCK } : undefined));
    renderScreen('/reports/stock', <StockPage />);
    await screen.findAllByText('Rice');
    expect(api.calls.some((c) => c.path === '/books/closed')).toBe(false);
    expect(screen.queryByRole('region', { name: 'Closed period' })).toBeNull();
  });
});

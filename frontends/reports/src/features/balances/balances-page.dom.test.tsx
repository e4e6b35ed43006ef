import { showMoment } from '@bahi/ui/screen';
import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { citiesReply, listPage, MUMBAI, party, SHARJAH } from '../../testing/fixtures.ts';
import { BalancesPage } from './balances-page.tsx';

const dev = party({ name: 'Dev', opening_balance: '0.10', balance: { amount: '0.20' } });
const neha = party({
  name: 'Neha',
  city_id: MUMBAI.id,
  city: { id: MUMBAI.id, name: MUMBAI.name, currency_name: 'INR' },
  opening_balance: '1000.00',
  balance: { amount: '-1500.25' },
});
const bhiwandi = party({ name: 'Bhiwandi', city: null, city_id: null, opening_balance: '5.00' });

function serve(over: Partial<Record<'funders' | 'agents' | 'collectors' | 'godowns', unknown>> = {}) {
  return mockApi((call) => {
    if (call.path === '/masters/cities') return citiesReply();
    if (call.path === '/reports/balances')
      return {
        body: {
          funders: listPage([dev, neha], 23),
          agents: listPage([]),
          collectors: listPage([]),
          godowns: listPage([bhiwandi]),
          ...over,
        },
      };
    return undefined;
  });
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);
const balanceCalls = (api: ReturnType<typeof serve>) =>
  api.calls.filter((c) => c.path === '/reports/balances');

describe('Balances Report (spec section 2)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists Name (a ledger link), City, Opening and Current Balance, the current one added exactly', async () => {
    const api = serve();
    renderScreen('/reports/balances', <BalancesPage />);
    expect(screen.getByRole('heading', { name: 'Balances Report' })).toBeTruthy();
    await screen.findByText('Dev');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'City', 'Opening Balance', 'Current Balance']);
    expect(cells(rows()[0]!)).toEqual(['Dev', 'Sharjah', '0.10 AED', '0.30 AED']);
    expect(cells(rows()[1]!)).toEqual(['Neha', 'Mumbai', '1,000.00 INR', '-500.25 INR']);
    expect(screen.getByRole('link', { name: 'Dev' }).getAttribute('href')).toBe(
      `/reports/ledger/Funder/${dev.id}`,
    );
    // 10 a page by default; 10, 25, 50, 100 offered (spec section 9).
    const first = balanceCalls(api)[0]!;
    expect(first.query.get('page')).toBe('1');
    expect(first.query.get('limit')).toBe('10');
    const sizes = screen.getByRole('combobox', { name: 'Rows per page' }) as HTMLSelectElement;
    expect([...sizes.options].map((o) => o.value)).toEqual(['10', '25', '50', '100']);
    expect(screen.getByText('1–10 of 23')).toBeTruthy();
  });

  it('puts the name search (after 500 ms) and the city in the request', async () => {
    const api = serve();
    renderScreen('/reports/balances', <BalancesPage />);
    await screen.findByText('Dev');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by name' }), { target: { value: 'De' } });
    await waitFor(() => expect(balanceCalls(api).at(-1)!.query.get('search')).toBe('De'), { timeout: 2000 });
    const city = screen.getByRole('combobox', { name: 'City' }) as HTMLSelectElement;
    await waitFor(() => expect(city.options.length).toBe(3));
    expect(city.options[0]!.textContent).toBe('All Cities');
    fireEvent.change(city, { target: { value: SHARJAH.id } });
    await waitFor(() => expect(balanceCalls(api).at(-1)!.query.get('city_id')).toBe(SHARJAH.id));
    expect(balanceCalls(api).at(-1)!.query.get('search')).toBe('De');
    expect(screen.getByTestId('where').textContent).toContain(`city_id=${SHARJAH.id}`);
  });

  it('has a tab per kind: Godowns in INR, without the city filter, each tab its own empty text', async () => {
    serve();
    renderScreen('/reports/balances', <BalancesPage />);
    await screen.findByText('Dev');
    fireEvent.click(screen.getByRole('tab', { name: 'Godowns' }));
    await screen.findByText('Bhiwandi');
    expect(screen.queryByRole('combobox', { name: 'City' })).toBeNull();
    expect(cells(rows()[0]!)).toEqual(['Bhiwandi', '', '5.00 INR', '5.00 INR']);
    expect(screen.getByRole('link', { name: 'Bhiwandi' }).getAttribute('href')).toBe(
      `/reports/ledger/Godown/${bhiwandi.id}`,
    );
    expect(screen.getByTestId('where').textContent).toBe('/reports/balances?tab=godowns');
    fireEvent.click(screen.getByRole('tab', { name: 'Agents' }));
    await screen.findByText('No agents found for the selected filters.');
    fireEvent.click(screen.getByRole('tab', { name: 'Collectors' }));
    await screen.findByText('No collectors found for the selected filters.');
  });

  it('says when no funder matches', async () => {
    serve({ funders: listPage([]) });
    renderScreen('/reports/balances', <BalancesPage />);
    await screen.findByText('No funders found for the selected filters.');
  });

  it('shows the server’s message or “Failed to fetch balances report.” and empties the table', async () => {
    mockApi((call) => (call.path === '/masters/cities' ? citiesReply() : { status: 500, body: {} }));
    renderScreen('/reports/balances', <BalancesPage />);
    await waitFor(() =>
      expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
        'Failed to fetch balances report.',
      ]),
    );
    expect(screen.getByText('No funders found for the selected filters.')).toBeTruthy();
  });

  it('downloads with the same filters, time travel included', async () => {
    const api = serve();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderScreen(`/reports/balances?search=Dev&city_id=${SHARJAH.id}&asOf=2026-11-20`, <BalancesPage />);
    await screen.findByText('Dev');
    expect(balanceCalls(api)[0]!.query.get('asOf')).toBe('2026-11-20');
    screen.getByText('The books as of 20 Nov 2026, as recorded now.');
    api.fetch.mockImplementationOnce(
      async () => new Response('%PDF', { headers: { 'content-type': 'application/pdf' } }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await screen.findByText('Download started successfully!');
    const [url] = api.fetch.mock.calls.at(-1)!;
    const sent = new URL(String(url), 'http://bahi.test');
    expect(sent.pathname).toBe('/api/reports/balances/download/pdf');
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      search: 'Dev',
      city_id: SHARJAH.id,
      asOf: '2026-11-20',
    });
    click.mockRestore();
  });

  it('as of a date in a closed period, says when and by whom it was closed', async () => {
    const closed = {
      position: '7',
      up_to: '2026-10-31',
      closed_at: '2026-11-01T09:30:00.000Z',
      closed_by: { id: 'u1', name: 'Asha' },
      digest: '0123456789abcdef'.repeat(4),
      chain_head: null,
      now: { digest: '0123456789abcdef'.repeat(4), same: true, reopened: true },
    };
    const api = mockApi((call) => {
      if (call.path === '/masters/cities') return citiesReply();
      if (call.path === '/reports/balances')
        return {
          body: {
            funders: listPage([dev]),
            agents: listPage([]),
            collectors: listPage([]),
            godowns: listPage([]),
          },
        };
      if (call.path === '/books/closed') return { body: { close: closed } };
      return undefined;
    });
    renderScreen('/reports/balances?asOf=2026-10-15', <BalancesPage />);
    await screen.findByText('Dev');
    const note = await screen.findByRole('region', { name: 'Closed period' });
    expect(note.textContent).toContain(`Closed on ${showMoment(closed.closed_at)} by Asha`);
    expect(note.textContent).toContain('are the closed ones, though the books have been reopened since');
    expect(note.textContent).toContain('Digest 0123-4567-89AB');
    expect(Object.fromEntries(api.calls.find((c) => c.path === '/books/closed')!.query)).toEqual({
      asOf: '2026-10-15',
    });
  });
});

import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CITIES, citiesReply, listPage, MUMBAI, SHARJAH } from '../../testing/fixtures.ts';
import type { PaymentRow } from './api.ts';
import { PaymentsPage } from './payments-page.tsx';

/** A payment as the server answers it: its type and currency follow its party and mode. */
const payment = (over: Partial<PaymentRow>): PaymentRow => ({
  id: `p-${Math.random()}`,
  payment_date: '2026-11-24',
  type: over.related_entity_type === 'Agent' ? 'Payment From' : 'Payment To',
  related_entity_type: 'Funder',
  related_entity_id: 'f1',
  relatedEntityName: 'Dev',
  payment_mode: 'Currency',
  handlerEntityName: 'Kabir',
  currency: over.payment_mode === 'INR' ? 'INR' : SHARJAH.currency_name,
  amount: '120.50',
  reference: null,
  ...over,
});

const PAYMENTS = [
  payment({ id: 'p1' }),
  payment({
    id: 'p2',
    payment_date: '2026-11-23',
    related_entity_type: 'Agent',
    relatedEntityName: 'Arif',
    payment_mode: 'INR',
    handlerEntityName: 'Bhiwandi',
    amount: '2735.35',
  }),
];

function serve(rows: PaymentRow[] = PAYMENTS) {
  return mockApi((call) => {
    if (call.path === '/masters/cities') return citiesReply();
    if (call.path === '/reports/payments') {
      // As the server does: a Currency payment is in its party's city's currency (the city asked for).
      const city = CITIES.find((c) => c.id === call.query.get('city_id'));
      const inCity = rows.map((r) =>
        r.payment_mode === 'INR' ? r : { ...r, currency: city?.currency_name ?? null },
      );
      return { body: listPage(inCity, 40) };
    }
    return undefined;
  });
}
const reportCalls = (api: ReturnType<typeof serve>) =>
  api.calls.filter((c) => c.path === '/reports/payments');
const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('Payments Report (spec section 2)', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('opens on the first city and lists Date, Type, Entity, Handler and Amount in the currency paid', async () => {
    const api = serve();
    renderScreen('/reports/payments', <PaymentsPage />);
    expect(screen.getByRole('heading', { name: 'Payments Report' })).toBeTruthy();
    await screen.findByText('Dev');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Date', 'Type', 'Entity', 'Handler', 'Amount']);
    // A funder is paid: 'Payment To'; an agent pays: 'Payment From'. Currency mode in the city's currency, INR in INR.
    expect(cells(rows()[0]!)).toEqual(['24 Nov 2026', 'Payment To', 'Dev', 'Kabir', '120.50 AED']);
    expect(cells(rows()[1]!)).toEqual(['23 Nov 2026', 'Payment From', 'Arif', 'Bhiwandi', '2,735.35 INR']);
    const first = reportCalls(api)[0]!;
    expect(Object.fromEntries(first.query)).toEqual({ page: '1', limit: '15', city_id: SHARJAH.id });
    const sizes = screen.getByRole('combobox', { name: 'Rows per page' }) as HTMLSelectElement;
    expect([...sizes.options].map((o) => o.value)).toEqual(['15', '25', '50', '100']);
  });

  it('puts the city tab, the entity type and the dates in the request', async () => {
    const api = serve();
    renderScreen('/reports/payments', <PaymentsPage />);
    await screen.findByText('Dev');
    fireEvent.click(screen.getByRole('tab', { name: 'Mumbai' }));
    await waitFor(() => expect(reportCalls(api).at(-1)!.query.get('city_id')).toBe(MUMBAI.id));
    const type = screen.getByRole('combobox', { name: 'Entity Type' }) as HTMLSelectElement;
    expect([...type.options].map((o) => o.textContent)).toEqual(['All', 'Funder', 'Agent']);
    fireEvent.change(type, { target: { value: 'Agent' } });
    await waitFor(() => expect(reportCalls(api).at(-1)!.query.get('related_entity_type')).toBe('Agent'));
    const start = screen.getByRole('textbox', { name: 'Start Date' });
    fireEvent.focus(start);
    fireEvent.change(start, { target: { value: '01/11/2026' } });
    fireEvent.blur(start);
    const end = screen.getByRole('textbox', { name: 'End Date' });
    fireEvent.focus(end);
    fireEvent.change(end, { target: { value: '2026-11-30' } });
    fireEvent.blur(end);
    await waitFor(() =>
      expect(Object.fromEntries(reportCalls(api).at(-1)!.query)).toEqual({
        page: '1',
        limit: '15',
        city_id: MUMBAI.id,
        related_entity_type: 'Agent',
        startDate: '2026-11-01T00:00:00.000Z',
        endDate: '2026-11-30T00:00:00.000Z',
      }),
    );
    // Mumbai pays in INR: a Currency payment there is in INR too.
    expect(cells(rows()[0]!)[4]).toBe('120.50 INR');
  });

  it('says when nothing matches', async () => {
    serve([]);
    renderScreen('/reports/payments', <PaymentsPage />);
    await screen.findByText('No payments found for the selected filters.');
  });

  it('shows the server’s message or “Failed to fetch payments.”', async () => {
    mockApi((call) => (call.path === '/masters/cities' ? citiesReply() : { status: 500, body: {} }));
    renderScreen('/reports/payments', <PaymentsPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch payments.');
  });

  it('downloads with the same filters', async () => {
    const api = mockApi((call) => {
      if (call.path === '/masters/cities') return citiesReply();
      if (call.path === '/reports/payments') return { body: listPage(PAYMENTS) };
      if (call.path === '/reports/payments/download/pdf') return { file: '%PDF', headers: {} };
      return undefined;
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderScreen(
      `/reports/payments?tab=${MUMBAI.id}&related_entity_type=Funder&startDate=2026-11-01`,
      <PaymentsPage />,
    );
    await screen.findByText('Dev');
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await screen.findByText('Download started successfully!');
    const sent = api.calls.find((c) => c.path === '/reports/payments/download/pdf')!;
    expect(Object.fromEntries(sent.query)).toEqual({
      city_id: MUMBAI.id,
      related_entity_type: 'Funder',
      startDate: '2026-11-01T00:00:00.000Z',
    });
  });
});

import { mockApi, renderScreen, testCity } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CashbookPage } from './cashbook-page.tsx';

const DUBAI = testCity(3, 'Dubai', 'AED', '22.5');
const KARACHI = testCity(4, 'Karachi', 'PKR', '0.3');
const RASHID = { id: '55555555-5555-4555-8555-555555555555', name: 'Rashid', city_id: DUBAI.id };
const BHIWANDI = { id: '66666666-6666-4666-8666-666666666666', name: 'Bhiwandi', city_id: null };

function serve() {
  return mockApi((call) => {
    if (call.path === '/masters/cities') return { body: { data: [DUBAI, KARACHI], totalItems: 2 } };
    if (call.path === '/masters/collectors')
      return { body: { data: call.query.get('city_id') === DUBAI.id ? [RASHID] : [], totalItems: 1 } };
    if (call.path === '/masters/godowns') return { body: { data: [BHIWANDI], totalItems: 1 } };
    if (call.path === '/reports/cashbook-report')
      return {
        body: [
          { date: '2026-11-02', particulars: 'Payment', cash_in: '100.10', cash_out: '0.00', key: '1.0' },
          { date: '2026-11-03', particulars: 'Expense', cash_in: '0.00', cash_out: '100.20', key: '2.0' },
        ],
      };
    return undefined;
  });
}

describe('Cashbook Report (spec sections 2, 4 and 5)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('the first city; the city’s collectors and every godown; fetched on Apply; zero shows -', async () => {
    const api = serve();
    renderScreen('/financials/cashbook-report', <CashbookPage />);
    const picker = (await screen.findByLabelText('Collector or Godown')) as HTMLSelectElement;
    await waitFor(() => expect(within(picker).getByRole('option', { name: 'Rashid' })).toBeTruthy());
    expect(within(picker).getByRole('group', { name: 'Godowns' })).toBeTruthy();
    expect(screen.getByText('Choose a collector or a godown, then Apply.')).toBeTruthy();
    fireEvent.change(picker, { target: { value: `Collector.${RASHID.id}` } });
    expect(api.calls.some((c) => c.path === '/reports/cashbook-report')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: /^Apply$/ }));
    await screen.findByRole('table', { name: 'Cashbook' });
    const call = api.calls.find((c) => c.path === '/reports/cashbook-report')!;
    expect([call.query.get('entity_type'), call.query.get('entity_id'), call.query.get('city_id')]).toEqual([
      'Collector',
      RASHID.id,
      DUBAI.id,
    ]);
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Cashbook' }))
          .getAllByRole('row')
          .map((r) => r.textContent)
          .slice(1),
      ).toEqual([
        '2 Nov 2026Payment100.10-',
        '3 Nov 2026Expense-100.20',
        'Total100.10100.20',
        'Net Total-0.10',
      ]),
    );
  });

  it('changing the city clears the picked collector', async () => {
    serve();
    renderScreen(
      `/financials/cashbook-report?tab=${DUBAI.id}&entity=Collector.${RASHID.id}`,
      <CashbookPage />,
    );
    await screen.findByRole('table', { name: 'Cashbook' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Karachi' }));
    await waitFor(() =>
      expect((screen.getByLabelText('Collector or Godown') as HTMLSelectElement).value).toBe(''),
    );
    expect(screen.getByTestId('where').textContent).not.toContain('entity=');
    expect(screen.getByText('Choose a collector or a godown, then Apply.')).toBeTruthy();
  });
});

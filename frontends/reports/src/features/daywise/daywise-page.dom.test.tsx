import { today } from '@bahi/ui/screen';
import { mockApi, renderScreen, testCity } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DaywisePage } from './daywise-page.tsx';

const DUBAI = testCity(3, 'Dubai', 'AED', '22.5');
const KARACHI = testCity(4, 'Karachi', 'PKR', '0.3');
const row = (type: 'Income' | 'Expense', amount: string, category: string, id: string) => ({
  date: '2026-11-02',
  category,
  remarks: null,
  type,
  amount,
  record: { type, id },
});

function serve(rows: unknown[]) {
  return mockApi((call) => {
    if (call.path === '/masters/cities') return { body: { data: [DUBAI, KARACHI], totalItems: 2 } };
    if (call.path === '/reports/daywise-report') return { body: rows };
    return undefined;
  });
}
const reads = (api: ReturnType<typeof serve>) =>
  api.calls.filter((c) => c.path === '/reports/daywise-report');

describe('Day-wise Report (spec sections 2 and 5)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('opens on the first city and today; Total and Net Total are exact, the net red below zero', async () => {
    const api = serve([
      row('Income', '0.10', 'Commission', 'a'),
      row('Expense', '0.20', 'Rent', 'b'),
      row('Expense', '0.05', 'Fuel', 'c'),
    ]);
    renderScreen('/financials/daywise-report', <DaywisePage />);
    await screen.findByText('Commission');
    const q = reads(api)[0]!.query;
    expect([q.get('city_id'), q.get('startDate'), q.get('endDate')]).toEqual([DUBAI.id, today(), today()]);
    expect((await screen.findByRole('tab', { name: 'Dubai' })).getAttribute('aria-selected')).toBe('true');
    const table = screen.getByRole('table', { name: 'Day-wise report' });
    const rows = within(table).getAllByRole('row');
    expect(rows.at(-2)!.textContent).toBe('Total0.100.25');
    expect(rows.at(-1)!.textContent).toBe('Net Total-0.15');
    expect(within(rows.at(-1)!).getByText('-0.15').className).not.toBe('');
  });

  it('sends the dates and category on Apply only; All Cities asks for a city', async () => {
    const api = serve([]);
    renderScreen('/financials/daywise-report', <DaywisePage />);
    expect(await screen.findByText('No transactions found for the selected filters.')).toBeTruthy();
    const before = reads(api).length;
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'Rent' } });
    expect(reads(api).length).toBe(before);
    fireEvent.click(screen.getByRole('button', { name: 'Apply Date/Category' }));
    await waitFor(() => expect(reads(api).at(-1)!.query.get('category')).toBe('Rent'));
    fireEvent.click(await screen.findByRole('tab', { name: 'All Cities' }));
    expect(await screen.findByText('Please select a city to view the report.')).toBeTruthy();
  });
});

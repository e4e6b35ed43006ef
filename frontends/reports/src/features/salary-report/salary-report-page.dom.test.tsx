import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { citiesReply, listPage, MUMBAI, party, SHARJAH } from '../../testing/fixtures.ts';
import { type SalaryRow, salaryFor, salaryYears } from './api.ts';
import { SalaryReportPage } from './salary-report-page.tsx';

const kabir = party({ name: 'Kabir' });
const SALARIES: SalaryRow[] = [
  {
    id: 's1',
    created_at: '2026-11-30T10:00:00.000Z',
    payment_date: '2026-11-30',
    collector_id: kabir.id,
    collectorName: 'Kabir',
    month: 11,
    year: 2026,
    payment_type: 'Full',
    payment_mode: 'INR',
    currency: SHARJAH.currency_name,
    amount: '1500.00',
    payerName: 'Bhiwandi',
    expense: { category: 'Salary', remarks: 'November salary' },
    remarks: 'November salary',
  },
];

function serve(rows: SalaryRow[] = SALARIES) {
  return mockApi((call) => {
    if (call.path === '/masters/cities') return citiesReply();
    if (call.path === '/masters/collectors') return { body: listPage([kabir]) };
    if (call.path === '/reports/salary-report') return { body: listPage(rows) };
    return undefined;
  });
}
const reportCalls = (api: ReturnType<typeof serve>) =>
  api.calls.filter((c) => c.path === '/reports/salary-report');
const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('Salary Payments Report (spec section 2)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('names the month paid for and offers the current year and the 4 before', () => {
    expect(salaryFor({ month: 11, year: 2026 })).toBe('November 2026');
    expect(salaryFor({ month: 1, year: 2027 })).toBe('January 2027');
    expect(salaryYears(new Date(2026, 5, 1))).toEqual([2026, 2025, 2024, 2023, 2022]);
  });

  it('lists Paid On, Collector (Payee), Salary For, Amount in the city’s currency, Paid From and Remarks', async () => {
    const api = serve();
    renderScreen('/reports/salary-report', <SalaryReportPage />);
    expect(screen.getByRole('heading', { name: 'Salary Payments Report' })).toBeTruthy();
    await screen.findByText('November 2026');
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Paid On', 'Collector (Payee)', 'Salary For', 'Amount', 'Paid From', 'Remarks']);
    // Paid by a godown in INR, the salary is still in the collector's city currency.
    expect(cells(rows()[0]!)).toEqual([
      '30 Nov 2026',
      'Kabir',
      'November 2026',
      '1,500.00 AED',
      'Bhiwandi',
      'November salary',
    ]);
    expect(Object.fromEntries(reportCalls(api)[0]!.query)).toEqual({
      page: '1',
      limit: '15',
      city_id: SHARJAH.id,
    });
    const sizes = screen.getByRole('combobox', { name: 'Rows per page' }) as HTMLSelectElement;
    expect([...sizes.options].map((o) => o.value)).toEqual(['15', '25', '50', '100']);
  });

  it('puts the month and the year in the request; All leaves them out', async () => {
    const api = serve();
    renderScreen('/reports/salary-report', <SalaryReportPage />);
    await screen.findByText('November 2026');
    const month = screen.getByRole('combobox', { name: 'Month' }) as HTMLSelectElement;
    expect([...month.options].map((o) => o.textContent)).toEqual([
      'All',
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ]);
    expect(month.options[11]!.value).toBe('11');
    const year = screen.getByRole('combobox', { name: 'Year' }) as HTMLSelectElement;
    const now = new Date().getFullYear();
    expect([...year.options].map((o) => o.value)).toEqual([
      '',
      ...[0, 1, 2, 3, 4].map((i) => String(now - i)),
    ]);
    fireEvent.change(month, { target: { value: '11' } });
    await waitFor(() => expect(reportCalls(api).at(-1)!.query.get('month')).toBe('11'));
    fireEvent.change(year, { target: { value: String(now - 1) } });
    await waitFor(() => expect(reportCalls(api).at(-1)!.query.get('year')).toBe(String(now - 1)));
    fireEvent.change(month, { target: { value: '' } });
    await waitFor(() => expect(reportCalls(api).at(-1)!.query.has('month')).toBe(false));
  });

  it('offers only the city’s collectors, and clears the chosen one when the city changes', async () => {
    const api = serve();
    renderScreen('/reports/salary-report', <SalaryReportPage />);
    await screen.findByText('November 2026');
    const box = await screen.findByRole('combobox', { name: 'Collector' });
    fireEvent.click(box);
    fireEvent.click(await screen.findByRole('option', { name: /Kabir/ }));
    await waitFor(() => expect(reportCalls(api).at(-1)!.query.get('collector_id')).toBe(kabir.id));
    const asked = api.calls.filter((c) => c.path === '/masters/collectors');
    expect(asked.every((c) => c.query.get('city_id') === SHARJAH.id)).toBe(true);
    fireEvent.click(screen.getByRole('tab', { name: 'Mumbai' }));
    await waitFor(() => expect(reportCalls(api).at(-1)!.query.get('city_id')).toBe(MUMBAI.id));
    expect(reportCalls(api).at(-1)!.query.has('collector_id')).toBe(false);
    expect(screen.getByTestId('where').textContent).toBe(`/reports/salary-report?tab=${MUMBAI.id}`);
    await waitFor(() =>
      expect(
        api.calls
          .filter((c) => c.path === '/masters/collectors')
          .at(-1)!
          .query.get('city_id'),
      ).toBe(MUMBAI.id),
    );
  });

  it('says when nothing matches, and shows a failure', async () => {
    serve([]);
    renderScreen('/reports/salary-report', <SalaryReportPage />);
    await screen.findByText('No salary payments found for the selected filters.');
    cleanup();
    mockApi((call) => (call.path === '/masters/cities' ? citiesReply() : { status: 500, body: {} }));
    renderScreen('/reports/salary-report', <SalaryReportPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to fetch salary report.');
  });

  it('downloads with the same filters', async () => {
    const api = serve();
    renderScreen(`/reports/salary-report?tab=${SHARJAH.id}&month=11&year=2026`, <SalaryReportPage />);
    await screen.findByText('November 2026');
    api.fetch.mockImplementationOnce(async () => new Response('x', { status: 500 }));
    fireEvent.click(screen.getByRole('button', { name: 'Download Excel' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to download xlsx report.');
    const [url] = api.fetch.mock.calls.at(-1)!;
    const sent = new URL(String(url), 'http://bahi.test');
    expect(sent.pathname).toBe('/api/reports/salary-report/download/xlsx');
    expect(Object.fromEntries(sent.searchParams)).toEqual({ city_id: SHARJAH.id, month: '11', year: '2026' });
  });
});

import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../testing/render.tsx';
import type { ActivityEntry, DashboardSummary } from './api.ts';
import { DashboardPage } from './dashboard-page.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const days = Array.from({ length: 30 }, (_, i) => ({
  day: `2026-11-${String(i + 1).padStart(2, '0')}`,
  income: i === 4 ? '1000.00' : '0.00',
  expense: i === 4 ? '10.00' : '0.00',
}));
const summary: DashboardSummary = {
  totalFunderBalance: '1234567.891',
  totalAgentBalance: '0',
  totalCollectorBalance: '-12.5',
  totalGodownBalance: '7',
  dailyIncomeExpense: days,
};
const entry = (over: Partial<ActivityEntry>): ActivityEntry => ({
  id: crypto.randomUUID(),
  action_type: 'CREATE',
  model_name: 'City',
  record_id: crypto.randomUUID(),
  user: { id: 'u1', name: 'Asha' },
  old_data: null,
  new_data: null,
  created_at: '2026-11-21T10:00:00.000Z',
  ...over,
});

describe('dashboard', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the four totals with 2 decimals, a log-scaled pair of bars per day, and activity sentences', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url).includes('dashboard-summary')
        ? json(200, summary)
        : json(200, [
            entry({}),
            entry({ action_type: 'DELETE', model_name: 'Expense', user: null }),
            entry({ action_type: 'UPDATE', model_name: 'User' }),
          ]),
    );
    const { container } = renderAt('/', <DashboardPage />);
    expect(await screen.findByText('12,34,567.89')).toBeTruthy();
    expect(screen.getByText('-12.50')).toBeTruthy();
    expect(screen.getByLabelText('Total Godown Cash').textContent).toContain('7.00');
    expect(screen.getByText('Asha created a City')).toBeTruthy();
    expect(screen.getByText('System deleted an Expense')).toBeTruthy();
    expect(screen.getByText('Asha updated a User')).toBeTruthy();

    expect(container.querySelectorAll('[data-day]')).toHaveLength(30);
    const day5 = container.querySelector('[data-day="2026-11-05"]');
    expect(day5?.querySelector('text')?.textContent).toBe('5');
    const height = (kind: string) =>
      Number(day5?.querySelector(`[data-kind="${kind}"]`)?.getAttribute('height'));
    // log(1 + 1000) is the full height; log(1 + 10) about a third of it, not a hundredth.
    expect(height('income') / height('expense')).toBeCloseTo(Math.log1p(1000) / Math.log1p(10), 5);
    expect(height('expense')).toBeGreaterThan(height('income') / 4);
    const empty = container.querySelector('[data-day="2026-11-06"] [data-kind="income"]');
    expect(Number(empty?.getAttribute('height'))).toBe(0);
  });

  it('reads a day by keyboard: one tab stop on the last day, arrows and Home move, the tooltip shows its figures', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url).includes('dashboard-summary') ? json(200, summary) : json(200, []),
    );
    const { container } = renderAt('/', <DashboardPage />);
    await screen.findByText('12,34,567.89');
    const focusable = container.querySelectorAll('[data-day][tabindex="0"]');
    expect([...focusable].map((g) => g.getAttribute('data-day'))).toEqual(['2026-11-30']);
    (focusable[0] as SVGGElement).focus();
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      '30 Nov 2026Income: 0.00 INRExpense: 0.00 INR',
    );
    fireEvent.keyDown(focusable[0]!, { key: 'Home' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(document.activeElement?.getAttribute('data-day')).toBe('2026-11-05');
    expect(screen.getByRole('tooltip').textContent).toBe('5 Nov 2026Income: 1,000.00 INRExpense: 10.00 INR');
    expect(document.activeElement?.getAttribute('aria-label')).toBe(
      '5 Nov 2026: income 1,000.00 INR, expense 10.00 INR',
    );
  });

  it('says when there is no recent activity, and shows the error text when loading fails', async () => {
    fetchMock.mockImplementation(async (url) =>
      String(url).includes('dashboard-summary') ? json(200, summary) : json(200, []),
    );
    renderAt('/', <DashboardPage />);
    expect(await screen.findByText('No recent activity.')).toBeTruthy();
    cleanup();
    fetchMock.mockImplementation(async () => json(500, {}));
    renderAt('/', <DashboardPage />);
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load dashboard data.');
  });
});

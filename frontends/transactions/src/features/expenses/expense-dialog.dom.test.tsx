import type { Role } from '@bahi/ui';
import { ADMIN, fakeSession, mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DUBAI, KARACHI, page, party } from '../../testing/fixtures.ts';
import { ExpenseDialog } from './expense-dialog.tsx';
import { ExpensesPage } from './expenses-page.tsx';

const rashid = party('Rashid Dubai', DUBAI, { balance: { amount: '500.00' } });
const bilal = party('Bilal Dubai', DUBAI);
const godown = party('Bhiwandi', null);
const asRole = (role: Role) => ({ session: fakeSession({ user: { ...ADMIN, role } }) });

const EXPENSE = {
  id: 'e0000000-0000-4000-8000-000000000001',
  expense_date: '2026-11-20',
  city_id: DUBAI.id,
  category: 'Rent',
  amount: '1250.50',
  paid_from_entity_type: 'Collector',
  paid_from_entity_id: rashid.id,
  payerName: 'Rashid Dubai',
  remarks: 'November',
};

function serve(over: (call: { method: string; path: string }) => unknown = () => undefined) {
  return mockApi((call) => {
    const special = over(call);
    if (special) return special as { status?: number; body?: unknown };
    if (call.path === '/masters/cities') return page([DUBAI, KARACHI]);
    if (call.path === '/masters/collectors') return page([rashid, bilal]);
    if (call.path === '/masters/godowns') return page([godown]);
    if (call.path === '/transactions/expenses' && call.method === 'GET') return page([EXPENSE]);
    if (call.path === '/transactions/expenses') return { status: 201, body: { id: 'x', position: '7' } };
    return undefined;
  });
}

const NOW = new Date(2026, 10, 24);
const openDialog = (onClose = () => {}) =>
  renderScreen('/', <ExpenseDialog city={DUBAI} now={NOW} onClose={onClose} />);
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('Expenses (spec sections 2, 5 and 6)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('opens on the first city, asks for its page with the dates as ISO timestamps, and shows amounts in its currency', async () => {
    const api = serve();
    renderScreen('/transactions/expenses?startDate=2026-11-01', <ExpensesPage />);
    const table = await screen.findByRole('table', { name: 'Expenses' });
    await within(table).findByText('Rent');
    const asked = api.calls.find((c) => c.path === '/transactions/expenses')!;
    expect(asked.query.get('city_id')).toBe(DUBAI.id);
    expect(asked.query.get('startDate')).toBe('2026-11-01T00:00:00.000Z');
    expect(asked.query.get('limit')).toBe('10');
    expect(screen.getByTestId('where').textContent).toContain(`tab=${DUBAI.id}`);
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Date', 'Category', 'Amount', 'Paid From', 'Remarks']);
    const row = within(table).getByText('Rent').closest('tr')!;
    expect(row.textContent).toContain('20 Nov 2026');
    expect(row.textContent).toContain('1,250.50 AED');
    expect(row.textContent).toContain('Rashid Dubai');
  });

  it('shows New Expense to Admin and Manager only', async () => {
    serve();
    for (const [role, shown] of [
      ['Admin', true],
      ['Manager', true],
      ['Viewer', false],
      ['Collector', false],
    ] as const) {
      renderScreen('/transactions/expenses', <ExpensesPage />, asRole(role));
      await screen.findByText('Rent');
      expect(!!screen.queryByRole('button', { name: 'New Expense' }), role).toBe(shown);
      cleanup();
    }
  });

  it('says what failed when the list cannot be fetched', async () => {
    serve((c) => (c.path === '/transactions/expenses' ? { status: 500, body: {} } : undefined));
    renderScreen('/transactions/expenses', <ExpensesPage />);
    expect(await screen.findByText('Failed to fetch expenses.')).toBeTruthy();
  });

  it('Paid From offers the collectors of the tab’s city, or the godowns', async () => {
    const api = serve();
    openDialog();
    fireEvent.click(await screen.findByRole('combobox', { name: 'Paid From (Collector)' }));
    expect((await screen.findByRole('option', { name: /^Rashid Dubai/ })).textContent).toContain(
      '500.00 AED',
    );
    expect(api.calls.find((c) => c.path === '/masters/collectors')?.query.get('city_id')).toBe(DUBAI.id);
    fireEvent.click(screen.getByRole('radio', { name: 'Godown (INR)' }));
    fireEvent.click(await screen.findByRole('combobox', { name: 'Paid From (Godown)' }));
    expect(await screen.findByRole('option', { name: /^Bhiwandi/ })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Paid From (Collector)' })).toBeNull();
  });

  it('records the expense in the tab’s city, with exact text and the date as an ISO timestamp', async () => {
    const api = serve();
    const onClose = vi.fn();
    openDialog(onClose);
    save();
    await screen.findByText('Category is required');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText(/^Category/), { target: { value: 'Rent' } });
    fireEvent.change(screen.getByLabelText(/^Amount/), { target: { value: '1250.50' } });
    fireEvent.click(await screen.findByRole('combobox', { name: 'Paid From (Collector)' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Bilal Dubai/ }));
    save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      city_id: DUBAI.id,
      expense_date: '2026-11-24T00:00:00.000Z',
      category: 'Rent',
      amount: '1250.50',
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: bilal.id,
    });
  });

  it('puts a refusal’s errors[].path on its field and stays open', async () => {
    const msg = 'The collector is not of Dubai';
    serve((c) =>
      c.method === 'POST'
        ? {
            status: 400,
            body: { message: 'The request is not valid.', errors: [{ path: 'paid_from_entity_id', msg }] },
          }
        : undefined,
    );
    const onClose = vi.fn();
    openDialog(onClose);
    fireEvent.change(screen.getByLabelText(/^Category/), { target: { value: 'Rent' } });
    fireEvent.change(screen.getByLabelText(/^Amount/), { target: { value: '10' } });
    const picker = await screen.findByRole('combobox', { name: 'Paid From (Collector)' });
    fireEvent.click(picker);
    fireEvent.click(await screen.findByRole('option', { name: /^Rashid Dubai/ }));
    save();
    await waitFor(() => expect(picker.getAttribute('aria-invalid')).toBe('true'));
    const shown = screen.getAllByText(msg);
    expect(shown).toHaveLength(1);
    expect(screen.queryByText('The request is not valid.')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });
});

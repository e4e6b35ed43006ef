import { ADMIN, fakeSession, mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DUBAI, KARACHI, page, party } from '../../testing/fixtures.ts';
import { IncomeDialog } from './income-dialog.tsx';
import { IncomesPage } from './incomes-page.tsx';

const imran = party('Imran Karachi', KARACHI, { opening_balance: '100.00', balance: { amount: '20.00' } });
const godown = party('Bhiwandi', null);

const INCOME = {
  id: 'e0000000-0000-4000-8000-000000000002',
  income_date: '2026-11-21',
  city_id: KARACHI.id,
  category: 'Commission',
  amount: '300.00',
  received_by_entity_type: 'Godown',
  received_by_entity_id: godown.id,
  receiverName: 'Bhiwandi',
  remarks: null,
};

function serve(post: { status: number; body: unknown } = { status: 201, body: { id: 'x', position: '8' } }) {
  return mockApi((call) => {
    if (call.path === '/masters/cities') return page([DUBAI, KARACHI]);
    if (call.path === '/masters/collectors') return page([imran]);
    if (call.path === '/masters/godowns') return page([godown]);
    if (call.path === '/transactions/incomes' && call.method === 'GET') return page([INCOME]);
    if (call.path === '/transactions/incomes') return post;
    return undefined;
  });
}

const NOW = new Date(2026, 10, 24);

describe('Other Incomes (spec sections 2, 5 and 6)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists the chosen city’s incomes with Received By; a godown’s amount is in INR', async () => {
    const api = serve();
    renderScreen(`/transactions/incomes?tab=${KARACHI.id}`, <IncomesPage />);
    expect(await screen.findByRole('heading', { name: 'Other Incomes' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Other Incomes' });
    const row = (await within(table).findByText('Commission')).closest('tr')!;
    expect(api.calls.find((c) => c.path === '/transactions/incomes')?.query.get('city_id')).toBe(KARACHI.id);
    expect(within(table).getAllByRole('columnheader')[3]!.textContent).toBe('Received By');
    expect(row.textContent).toContain('300.00 INR');
    expect(row.textContent).toContain('Bhiwandi (Godown)');
  });

  it('shows New Income to Admin and Manager, not to a Viewer', async () => {
    serve();
    renderScreen('/transactions/incomes', <IncomesPage />, {
      session: fakeSession({ user: { ...ADMIN, role: 'Viewer' } }),
    });
    await screen.findByText('Commission');
    expect(screen.queryByRole('button', { name: 'New Income' })).toBeNull();
    cleanup();
    renderScreen('/transactions/incomes', <IncomesPage />, {
      session: fakeSession({ user: { ...ADMIN, role: 'Manager' } }),
    });
    expect(await screen.findByRole('button', { name: 'New Income' })).toBeTruthy();
  });

  it('Received By offers the collectors of the city, or the godowns, and sends the choice', async () => {
    const api = serve();
    const onClose = vi.fn();
    renderScreen('/', <IncomeDialog city={KARACHI} now={NOW} onClose={onClose} />);
    expect((await screen.findByRole('dialog')).textContent).toContain('Karachi (PKR)');
    fireEvent.click(await screen.findByRole('combobox', { name: 'Received By (Collector)' }));
    expect((await screen.findByRole('option', { name: /^Imran Karachi/ })).textContent).toContain(
      '120.00 PKR',
    );
    expect(api.calls.find((c) => c.path === '/masters/collectors')?.query.get('city_id')).toBe(KARACHI.id);
    fireEvent.click(screen.getByRole('radio', { name: 'Godown (INR)' }));
    fireEvent.click(await screen.findByRole('combobox', { name: 'Received By (Godown)' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Bhiwandi/ }));
    fireEvent.change(screen.getByLabelText(/^Category/), { target: { value: 'Commission' } });
    fireEvent.change(screen.getByLabelText(/^Amount/), { target: { value: '300' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      city_id: KARACHI.id,
      income_date: '2026-11-24T00:00:00.000Z',
      amount: '300.00',
      received_by_entity_type: 'Godown',
      received_by_entity_id: godown.id,
    });
  });

  it('puts a refusal of the receiver’s type on the picker (alias), not in the alert', async () => {
    const msg = 'Received by must be a Collector or a Godown';
    serve({
      status: 400,
      body: { message: 'The request is not valid.', errors: [{ path: 'received_by_entity_type', msg }] },
    });
    const onClose = vi.fn();
    renderScreen('/', <IncomeDialog city={KARACHI} now={NOW} onClose={onClose} />);
    const picker = await screen.findByRole('combobox', { name: 'Received By (Collector)' });
    fireEvent.click(picker);
    fireEvent.click(await screen.findByRole('option', { name: /^Imran Karachi/ }));
    fireEvent.change(screen.getByLabelText(/^Category/), { target: { value: 'Commission' } });
    fireEvent.change(screen.getByLabelText(/^Amount/), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(picker.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText(msg)).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });
});

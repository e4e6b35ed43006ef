import { type ApiReply, mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ledger, LedgerLine } from './api.ts';
import { LedgerPage } from './ledger-page.tsx';

const ID = '22222222-2222-4222-8222-222222222222';
const CITY = {
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Sharjah',
  currency_name: 'AED',
  rate: '22.5',
};
const EXPENSE: LedgerLine['record'] = { type: 'Expense', id: '44444444-4444-4444-8444-444444444444' };
const BACKDATED: LedgerLine['record'] = { type: 'Expense', id: '55555555-5555-4555-8555-555555555555' };

const line = (over: Partial<LedgerLine>): LedgerLine => ({
  date: '2026-11-01',
  particulars: 'Expense',
  type: 'Credit',
  debit: '0.00',
  credit: '10.00',
  balance: '90.00',
  correction: null,
  key: '1.0',
  record: EXPENSE,
  recorded_at: '2026-11-01T10:00:00.000Z',
  ...over,
});

function ledger(lines: LedgerLine[], over: Partial<Ledger> = {}): Ledger {
  return {
    entity: { id: ID, name: 'Kabir', type: 'Collector', city_id: CITY.id, currency: 'AED' },
    openingBalance: '100.00',
    closingBalance: lines.at(-1)?.balance ?? '100.00',
    totalDebit: '0.00',
    totalCredit: '10.00',
    transactions: lines,
    ...over,
  };
}

const NOW = ledger([
  line({ key: '2.0', date: '2026-10-15', record: BACKDATED, credit: '5.00', balance: '95.00' }),
  line({ key: '1.0', balance: '85.00' }),
]);
const THEN = ledger([line({ key: '1.0' })]);
const A = '2026-11-20T10:00:00.000Z';

function serve() {
  return mockApi((call) => {
    if (call.path === '/masters/cities') return { body: { data: [CITY], totalItems: 1 } };
    if (call.path === `/reports/ledger/Collector/${ID}`) {
      if (call.query.get('knownAt') === A) return { body: THEN };
      return { body: { ...NOW, closingBalance: '85.00', totalCredit: '15.00' } };
    }
    if (call.path === `/reports/records/Expense/${BACKDATED.id}`)
      return {
        body: {
          type: 'Expense',
          id: BACKDATED.id,
          deleted: false,
          data: { category: 'Fuel', amount: '5.00', paid_from_entity_id: ID },
          names: { [ID]: 'Kabir' },
          history: [
            {
              id: 'h1',
              action_type: 'CREATE',
              model_name: 'Expense',
              user: { id: 'u', name: 'Asha Admin' },
              old_data: null,
              new_data: { category: 'Fuel', amount: '4.00', paid_from_entity_id: ID },
              created_at: '2026-11-21T09:00:00.000Z',
            },
            {
              id: 'h2',
              action_type: 'UPDATE',
              model_name: 'Expense',
              user: null,
              old_data: { category: 'Fuel', amount: '4.00', paid_from_entity_id: ID },
              new_data: { category: 'Fuel', amount: '5.00', paid_from_entity_id: ID },
              created_at: '2026-11-22T09:00:00.000Z',
            },
          ],
        },
      };
    return undefined;
  });
}

const open = (search = '') =>
  renderScreen(`/reports/ledger/Collector/${ID}${search}`, <LedgerPage />, {
    route: '/reports/ledger/:entityType/:entityId',
  });
const card = (name: string) => screen.getByRole('region', { name });

describe('Ledger (spec section 2; issue #15)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the breadcrumb, the four figures in the city currency and every line', async () => {
    serve();
    open();
    expect(await screen.findByRole('heading', { name: 'Ledger: Kabir' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Collectors' }).getAttribute('href')).toBe('/masters/collectors');
    await waitFor(() => expect(within(card('Opening Balance')).getByText('100.00 AED')).toBeTruthy());
    expect(within(card('Total Credit')).getByText('15.00 AED')).toBeTruthy();
    expect(within(card('Closing Balance')).getByText('85.00 AED')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Ledger of Kabir' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'DateParticularsTypeDebit (AED)Credit (AED)Balance (AED)',
      '15 Oct 2026ExpenseCredit0.005.0095.00',
      '1 Nov 2026ExpenseCredit0.0010.0085.00',
    ]);
  });

  it('names the party from the link it was opened by while its ledger is on the way', async () => {
    let answer: (reply: ApiReply) => void = () => {};
    mockApi((call) =>
      call.path.startsWith('/reports/ledger/') ? new Promise<ApiReply>((r) => (answer = r)) : undefined,
    );
    renderScreen(`/reports/ledger/Collector/${ID}`, <LedgerPage />, {
      route: '/reports/ledger/:entityType/:entityId',
      state: { name: 'Kabir (as listed)' },
    });
    expect(await screen.findByRole('heading', { name: 'Ledger: Kabir (as listed)' })).toBeTruthy();
    answer({ body: NOW });
    expect(await screen.findByRole('heading', { name: 'Ledger: Kabir' })).toBeTruthy();
  });

  it('sends the dates only on Apply Filter, and the time travel with them', async () => {
    const api = serve();
    open('?asOf=2026-11-10');
    await screen.findByRole('heading', { name: 'Ledger: Kabir' });
    const ledgerCalls = () => api.calls.filter((c) => c.path.startsWith('/reports/ledger'));
    expect(ledgerCalls()[0]!.query.get('asOf')).toBe('2026-11-10');
    fireEvent.change(screen.getByLabelText('Start Date'), { target: { value: '1 Oct 2026' } });
    fireEvent.blur(screen.getByLabelText('Start Date'));
    expect(ledgerCalls().some((c) => c.query.get('startDate'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Apply Filter' }));
    await waitFor(() => expect(ledgerCalls().at(-1)!.query.get('startDate')).toBe('2026-10-01'));
    expect(ledgerCalls().at(-1)!.query.get('asOf')).toBe('2026-11-10');
  });

  it('Enter in a date applies the filters as Apply Filter does; a day that is none applies nothing', async () => {
    const api = serve();
    open();
    await screen.findByRole('heading', { name: 'Ledger: Kabir' });
    const ledgerCalls = () => api.calls.filter((c) => c.path.startsWith('/reports/ledger'));
    const start = screen.getByLabelText('Start Date');
    fireEvent.change(start, { target: { value: '31/09/2026' } });
    fireEvent.keyDown(start, { key: 'Enter' });
    expect(screen.getByText('31/09/2026 is not a date: Sep 2026 has 30 days.')).toBeTruthy();
    fireEvent.change(start, { target: { value: '30/09/2026' } });
    fireEvent.keyDown(start, { key: 'Enter' });
    await waitFor(() => expect(ledgerCalls().at(-1)!.query.get('startDate')).toBe('2026-09-30'));
    expect(ledgerCalls().filter((c) => c.query.get('startDate'))).toHaveLength(1);
    expect(screen.queryByText(/is not a date/)).toBeNull();
  });

  it('Compare: marks what was added since A and shows each figure’s difference', async () => {
    serve();
    open(`?compare=${encodeURIComponent(A)}`);
    await waitFor(() => expect(screen.getByText('Added since')).toBeTruthy());
    const table = screen.getByRole('table', { name: 'Ledger of Kabir' });
    const added = within(table)
      .getAllByRole('row')
      .filter((r) => r.getAttribute('data-mark') === 'added');
    expect(added.map((r) => r.textContent)).toEqual(['15 Oct 2026ExpenseCredit0.005.0095.00Added since']);
    expect(within(card('Total Credit')).getByText('+5.00 since')).toBeTruthy();
    expect(within(card('Closing Balance')).getByText('-5.00 since')).toBeTruthy();
    expect(within(card('Opening Balance')).getByText('No change since')).toBeTruthy();
  });

  it('a line opens its record with who changed what; Close returns to the line', async () => {
    serve();
    open();
    const button = await screen.findByRole('button', { name: 'Expense of 15 Oct 2026: open the record' });
    // The whole words on hover, where the column cuts them.
    expect(button.getAttribute('title')).toBe('Expense');
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByText('UPDATE')).toBeTruthy());
    expect(within(dialog).getByText('by Asha Admin')).toBeTruthy();
    expect(within(dialog).getByText('by System/Deleted User')).toBeTruthy();
    // The dialog is aria-hidden while Fluent's opening motion runs, and in happy-dom that motion
    // does not always finish: the fields table and its rows are found whether or not they are
    // hidden yet (the rows' query missed that, the flake of 1 run in about 15).
    const update = await within(dialog).findByRole('table', { name: 'UPDATE Expense: fields', hidden: true });
    expect(within(update).getAllByRole('row', { hidden: true })[1]!.textContent).toBe('Amount4.005.00');
    // The record names its payer, not an id.
    expect(within(dialog).getAllByText('Kabir').length).toBeGreaterThan(0);
    expect(screen.getByTestId('where').textContent).toContain(`record=Expense.${BACKDATED.id}`);
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Close', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('dialog', { hidden: true })).toBeNull());
    expect(screen.getByTestId('where').textContent).not.toContain('record=');
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('aria-label')).toBe(
        'Expense of 15 Oct 2026: open the record',
      ),
    );
  });

  it("says 'No data found.' for a ledger without lines and the spec's text when it fails", async () => {
    mockApi((call) => {
      if (call.path === '/masters/cities') return { body: { data: [CITY], totalItems: 1 } };
      if (call.path.startsWith('/reports/ledger')) return { body: ledger([]) };
      return undefined;
    });
    open();
    expect(await screen.findByText('No data found.')).toBeTruthy();
    cleanup();
    mockApi(() => ({ status: 500, body: {} }));
    open();
    expect(await screen.findByText('Failed to fetch ledger for Collector.')).toBeTruthy();
  });
});

describe('Ledger: Show corrections (issue #25, item 8)', () => {
  const PURCHASE: LedgerLine['record'] = { type: 'Purchase', id: '66666666-6666-4666-8666-666666666666' };
  const edit = { action: 'edited' as const, at: '2026-11-25T09:00:00.000Z', by: 'Asha' };
  // Each record once: the purchase at its current figures.
  const PLAIN = ledger(
    [
      line({
        key: '9.1',
        record: PURCHASE,
        particulars: 'Purchase: 60.0000 Turmeric (edited)',
        credit: '18720.00',
        balance: '18720.00',
        correction: { state: 'amended', ...edit },
      }),
    ],
    { openingBalance: '0.00', totalCredit: '18720.00' },
  );
  // The trail: the original, its reversal, the amended line.
  const TRAIL = ledger(
    [
      line({
        key: '3.1',
        record: PURCHASE,
        particulars: 'Purchase: 57.0000 Turmeric - edited on 25 Nov 2026',
        credit: '17784.00',
        balance: '17784.00',
        correction: { state: 'superseded', ...edit },
      }),
      line({
        key: '9.0',
        record: PURCHASE,
        type: 'Debit',
        particulars: 'Reversal of Purchase: 57.0000 Turmeric - edit of 25 Nov 2026 by Asha',
        debit: '17784.00',
        credit: '0.00',
        balance: '0.00',
        correction: { state: 'reversal', ...edit },
      }),
      PLAIN.transactions[0]!,
    ],
    { openingBalance: '0.00', totalDebit: '17784.00', totalCredit: '36504.00' },
  );

  beforeEach(() => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:bahi/1'), revokeObjectURL: vi.fn() }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('asks for the trail when switched on (URL, screen, PDF), marks the corrected lines and hides them again', async () => {
    const api = mockApi((call) => {
      if (call.path === '/masters/cities') return { body: { data: [CITY], totalItems: 1 } };
      if (call.path === `/reports/ledger/Collector/${ID}`)
        return { body: call.query.get('corrections') === 'true' ? TRAIL : PLAIN };
      if (call.path === `/reports/ledger/Collector/${ID}/download/pdf`)
        return { file: '%PDF', headers: { 'content-type': 'application/pdf' } };
      return undefined;
    });
    open();
    const where = () => screen.getByTestId('where').textContent;
    const table = await screen.findByRole('table', { name: 'Ledger of Kabir' });
    const bodyRows = () => within(table).getAllByRole('row').slice(1);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(bodyRows()[0]!.textContent).toBe(
      '1 Nov 2026AmendedPurchase: 60.0000 Turmeric (edited)Credit0.0018,720.0018,720.00',
    );
    expect(within(table).getAllByRole('row')[0]!.textContent).toBe(
      'DateParticularsTypeDebit (AED)Credit (AED)Balance (AED)',
    );

    const toggle = screen.getByRole('switch', { name: 'Show corrections' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    toggle.focus();
    fireEvent.click(toggle);
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(where()).toBe(`/reports/ledger/Collector/${ID}?corrections=1`);
    const asked = api.calls.filter((c) => c.path === `/reports/ledger/Collector/${ID}`).at(-1)!;
    expect(asked.query.get('corrections')).toBe('true');
    // Every line as the API gives it, each correction tagged; those that no longer count muted.
    expect(bodyRows().map((r) => [r.textContent, r.getAttribute('data-dim')])).toEqual([
      [`1 Nov 2026Replaced${TRAIL.transactions[0]!.particulars}Credit0.0017,784.0017,784.00`, 'true'],
      [`1 Nov 2026Reversal${TRAIL.transactions[1]!.particulars}Debit17,784.000.000.00`, 'true'],
      [`1 Nov 2026Amended${PLAIN.transactions[0]!.particulars}Credit0.0018,720.0018,720.00`, null],
    ]);

    // The file follows the screen's choice.
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await screen.findByText('Download started successfully!');
    const file = api.calls.find((c) => c.path.endsWith('/download/pdf'))!;
    expect(file.query.get('corrections')).toBe('true');

    fireEvent.click(toggle);
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(where()).toBe(`/reports/ledger/Collector/${ID}`);
  });
});

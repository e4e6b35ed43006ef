import type { ImportPreview, ImportSummary } from '@bahi/contracts';
import { setToken } from '@bahi/ui';
import { ADMIN, mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImportPage } from './import-page.tsx';

const ID = '22222222-2222-4222-8222-222222222222';
/** Another import for the second test: the screens' query client outlives a test. */
const ID2 = '33333333-3333-4333-8333-333333333333';
const ID3 = '44444444-4444-4444-8444-444444444444';
const columns = [
  { header: 'Name', field: 'name', letter: 'A' },
  { header: 'City', field: 'city_id', letter: 'B' },
  { header: 'Opening Balance', field: 'opening_balance', letter: 'C' },
];
const preview = (over: Partial<ImportPreview>): ImportPreview => ({
  id: ID,
  kind: 'funders',
  file_name: 'funders.xlsx',
  sha256: 'a'.repeat(64),
  format: 'xlsx',
  status: 'valid',
  created_at: '2026-11-28T10:00:00.000Z',
  uploaded_by: { id: ADMIN.id, name: ADMIN.name },
  columns,
  rows_total: 2,
  rows_valid: 2,
  rows_invalid: 0,
  file_errors: [],
  rows: [
    {
      row: 2,
      outcome: 'ok',
      values: { Name: 'Asha', City: 'Kabul', 'Opening Balance': '1,00,000' },
      errors: [],
    },
    { row: 3, outcome: 'ok', values: { Name: 'Bilal', City: 'Mumbai', 'Opening Balance': '50' }, errors: [] },
  ],
  effect: {
    records: 2,
    opening_balances: [
      { row: 2, name: 'Asha', city: 'Kabul', currency: 'AFN', before: '0.00', after: '100000.00' },
      { row: 3, name: 'Bilal', city: 'Mumbai', currency: 'INR', before: '0.00', after: '50.00' },
    ],
    totals: [
      { currency: 'AFN', records: 1, opening_balance: '100000.00' },
      { currency: 'INR', records: 1, opening_balance: '50.00' },
    ],
    accounts: [],
    stock: [],
  },
  committed: null,
  undone: null,
  ...over,
});
const ID4 = '55555555-5555-4555-8555-555555555555';
const ID5 = '66666666-6666-4666-8666-666666666666';
const summary = (id: string, file: string, status: ImportSummary['status']): ImportSummary => ({
  id,
  kind: 'funders',
  file_name: file,
  status,
  rows_total: 3,
  created_at: '2026-11-28T10:00:00.000Z',
  uploaded_by: { id: ADMIN.id, name: ADMIN.name },
  committed:
    status === 'committed'
      ? { at: '2026-11-28T10:01:00.000Z', by: { id: ADMIN.id, name: ADMIN.name } }
      : null,
  undone: null,
});

beforeEach(() => setToken('tok-import'));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setToken(null);
});

describe('Settings > Import', () => {
  it('marks each wrong cell with its message and keeps Commit disabled', async () => {
    mockApi((call) =>
      call.path === `/imports/${ID}`
        ? {
            body: preview({
              status: 'invalid',
              rows_valid: 1,
              rows_invalid: 1,
              effect: null,
              rows: [
                preview({}).rows[0]!,
                {
                  row: 3,
                  outcome: 'error',
                  values: { Name: 'Bilal', City: 'Atlantis' },
                  errors: [
                    {
                      cell: 'B3',
                      column: 'B',
                      row: 3,
                      field: 'city_id',
                      header: 'City',
                      msg: 'No city is named "Atlantis"',
                    },
                  ],
                },
              ],
            }),
          }
        : undefined,
    );
    renderScreen(`/settings/import?kind=funders&id=${ID}`, <ImportPage />);
    const region = await screen.findByRole('region', { name: 'Preview' });
    await within(region).findByText('2 rows: 1 ready, 1 wrong');
    expect(await within(region).findByText('B3: No city is named "Atlantis"')).toBeTruthy();
    expect(region.querySelector('[data-cell="B3"]')).not.toBeNull();
    expect(region.querySelectorAll('[data-cell]')).toHaveLength(1);
    expect((within(region).getByRole('button', { name: /^Commit/ }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('shows the opening balances a valid file sets and commits it', async () => {
    let committed = false;
    const api = mockApi((call) => {
      if (call.method === 'POST' && call.path === `/imports/${ID2}/commit`) {
        committed = true;
        return { body: { id: ID2, position: '40', records: 2, events: 3 } };
      }
      if (call.path === `/imports/${ID2}`)
        return {
          body: committed
            ? preview({
                id: ID2,
                status: 'committed',
                committed: {
                  at: '2026-11-28T10:01:00.000Z',
                  position: '40',
                  events: 3,
                  by: { id: ADMIN.id, name: ADMIN.name },
                },
              })
            : preview({ id: ID2 }),
        };
      return undefined;
    });
    renderScreen(`/settings/import?kind=funders&id=${ID2}`, <ImportPage />);
    const region = await screen.findByRole('region', { name: 'Preview' });
    const effect = await within(region).findByLabelText('Effect on the books');
    expect(effect.textContent).toContain('AFN: 1 funder, 1,00,000.00 in all');
    const commit = within(region).getByRole('button', { name: 'Commit 2 funders' }) as HTMLButtonElement;
    expect(commit.disabled).toBe(false);
    fireEvent.click(commit);
    await within(region).findByText(/^Imported 2 funders from funders.xlsx by Asha Admin/);
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'POST' && c.path === `/imports/${ID2}/commit`)).toBe(true),
    );
  });

  it('shows what a sales file does to the accounts and stock, and links to the sales once committed', async () => {
    mockApi((call) =>
      call.path === `/imports/${ID3}`
        ? {
            body: preview({
              id: ID3,
              kind: 'sales',
              file_name: 'sales.xlsx',
              status: 'committed',
              columns: [
                { header: 'Agent', field: 'agent_id', letter: 'C' },
                { header: 'Quantity', field: 'quantity', letter: 'G' },
              ],
              rows_total: 1,
              rows_valid: 1,
              rows: [{ row: 2, outcome: 'ok', values: { Agent: 'Bilal', Quantity: '10' }, errors: [] }],
              effect: {
                records: 1,
                opening_balances: [],
                totals: [{ currency: 'AFN', records: 1, opening_balance: '0.00', amount: '10000.00' }],
                accounts: [
                  {
                    account: 'agent:b',
                    name: 'Bilal',
                    kind: 'Agent',
                    currency: 'AFN',
                    debit: '10000.00',
                    credit: '0.00',
                    before: '0.00',
                    after: '10000.00',
                  },
                ],
                stock: [
                  {
                    godown_id: 'g',
                    godown: 'Bhiwandi',
                    product_id: 'p',
                    product: 'Cumin',
                    before: '100.0000',
                    change: '-10.0000',
                    after: '90.0000',
                  },
                ],
              },
              committed: {
                at: '2026-11-28T10:01:00.000Z',
                position: '41',
                events: 2,
                by: { id: ADMIN.id, name: ADMIN.name },
              },
            }),
          }
        : undefined,
    );
    renderScreen(`/settings/import?kind=sales&id=${ID3}`, <ImportPage />);
    const region = await screen.findByRole('region', { name: 'Preview' });
    const effect = await within(region).findByLabelText('Effect on the books');
    expect(effect.textContent).toContain('AFN: 1 sale, 10,000.00 in all');
    expect(within(effect).getByRole('table', { name: 'Stock moved' }).textContent).toContain('-10.0000');
    await within(region).findByText(/^Imported 1 sale from sales.xlsx by Asha Admin/);
    expect(within(region).getByRole('link', { name: 'Open Sales' }).getAttribute('href')).toBe(
      '/transactions/sales',
    );
  });

  it('shows the commit as records recorded of the total while it runs', async () => {
    let release: (() => void) | undefined;
    mockApi(async (call) => {
      if (call.method === 'POST' && call.path === `/imports/${ID5}/commit`) {
        await new Promise<void>((r) => {
          release = r;
        });
        return { body: { id: ID5, position: '40', records: 2, events: 3 } };
      }
      if (
        call.path === '/imports/progress' &&
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(
          call.query.get('key') ?? '',
        )
      )
        return { body: { id: ID5, state: 'recording', done: 1, total: 2 } };
      if (call.path === `/imports/${ID5}`) return { body: preview({ id: ID5 }) };
      if (call.path === '/imports') return { body: { data: [], totalItems: 0 } };
      return undefined;
    });
    renderScreen(`/settings/import?kind=funders&id=${ID5}`, <ImportPage />);
    const region = await screen.findByRole('region', { name: 'Preview' });
    fireEvent.click(await within(region).findByRole('button', { name: 'Commit 2 funders' }));
    await within(region).findByText('Recorded 1 of 2 funders…');
    const bar = within(region).getByRole('progressbar', { name: 'Committing' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0.5');
    release?.();
  });

  it('lists past imports and undoes a committed one after confirming, or shows why not', async () => {
    let undone = false;
    let attempts = 0;
    const api = mockApi((call) => {
      if (call.path === '/imports')
        return {
          body: {
            data: [
              summary(ID4, 'cities.csv', undone ? 'undone' : 'committed'),
              summary(ID5, 'draft.xlsx', 'invalid'),
            ],
            totalItems: 2,
          },
        };
      if (call.method === 'POST' && call.path === `/imports/${ID4}/undo`) {
        if (++attempts === 1)
          return {
            status: 409,
            body: {
              message:
                'This import cannot be undone: Funder "Asha" was changed after the import (funder updated).',
            },
          };
        undone = true;
        return { body: { id: ID4, position: '50', records: 3, events: 4 } };
      }
      return undefined;
    });
    renderScreen('/settings/import?kind=funders', <ImportPage />);
    const history = await screen.findByRole('region', { name: 'Past imports' });
    await within(history).findByText('cities.csv');
    expect(within(history).getAllByRole('button', { name: /^Undo import/ })).toHaveLength(1);
    fireEvent.click(within(history).getByRole('button', { name: 'Undo import cities.csv' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Undo import?' });
    expect(dialog.textContent).toContain(
      'Every record imported from cities.csv (3 funders) will be reversed',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo import' }));
    await within(history).findByText(
      'This import cannot be undone: Funder "Asha" was changed after the import (funder updated).',
    );
    expect(api.calls.filter((c) => c.method === 'POST' && c.path === `/imports/${ID4}/undo`)).toHaveLength(1);
    // Asked again: this time the server undoes it.
    fireEvent.click(within(history).getByRole('button', { name: 'Undo import cities.csv' }));
    // The first dialog may still be closing (aria-hidden while its animation runs): the button of
    // the one that opened now.
    const confirm = await waitFor(() =>
      within(screen.getByRole('alertdialog', { name: 'Undo import?' })).getByRole('button', {
        name: 'Undo import',
      }),
    );
    fireEvent.click(confirm);
    await screen.findByText('Undid the import of cities.csv: 3 funders reversed.');
    await within(history).findByText('Undone');
    expect(within(history).queryByRole('button', { name: /^Undo import/ })).toBeNull();
  });
});

import type { ImportPreview } from '@bahi/contracts';
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
  ...over,
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
});

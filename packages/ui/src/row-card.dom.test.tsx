import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Column, DataTable } from './data-table.tsx';

interface Row {
  id: string;
  name: string;
  city: string;
  balance: string;
}
const ROWS: Row[] = [
  { id: '1', name: 'Dev Traders', city: 'Mumbai', balance: '1,200.00 INR' },
  { id: '2', name: 'Asha', city: 'Dubai', balance: '-15.50 AED' },
];
const COLUMNS: Column<Row>[] = [
  { key: 'name', header: 'Name', render: (r) => r.name },
  { key: 'city', header: 'City', render: (r) => r.city },
  { key: 'balance', header: 'Current Balance', card: 'figure', render: (r) => r.balance },
  {
    key: 'actions',
    header: 'Actions',
    card: 'action',
    render: (r) => <button type="button">Pay {r.name}</button>,
  },
];

/** The screen as a phone's (below 600 px) or a desk's. */
function screenWidth(narrow: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: narrow && query.includes('max-width'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

const show = () =>
  render(
    <FluentProvider theme={webLightTheme}>
      <DataTable label="Funders" columns={COLUMNS} rows={ROWS} rowKey={(r) => r.id} emptyText="None." cards />
    </FluentProvider>,
  );

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DataTable cards (issue #25, item 6)', () => {
  it('on a phone, each row is a card: the title, details labelled, the amount under its header, the buttons', async () => {
    screenWidth(true);
    show();
    const table = await screen.findByRole('table', { name: 'Funders' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    // One cell a row: nothing to lay side by side, nothing off to the right.
    expect(rows.map((r) => within(r).getAllByRole('cell').length)).toEqual([1, 1]);
    const first = rows[0]!;
    expect(first.querySelector('[data-card]')).not.toBeNull();
    expect(first.querySelector('[data-figure="balance"] dt')!.textContent).toBe('Current Balance');
    expect(first.querySelector('[data-figure="balance"] dd')!.textContent).toBe('1,200.00 INR');
    expect(first.textContent).toContain('City: Mumbai');
    expect(within(first).getByRole('button', { name: 'Pay Dev Traders' })).toBeTruthy();
  });

  it('on a desk, the table is as it was: a cell a column under its header', async () => {
    screenWidth(false);
    show();
    const table = await screen.findByRole('table', { name: 'Funders' });
    const rows = within(table).getAllByRole('row');
    expect(rows[0]!.textContent).toBe('NameCityCurrent BalanceActions');
    expect(
      within(rows[2]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Asha', 'Dubai', '-15.50 AED', 'Pay Asha']);
    expect(table.querySelector('[data-card]')).toBeNull();
  });
});

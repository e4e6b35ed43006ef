import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DUBAI, page, party } from '../../testing/fixtures.ts';
import { PurchasesPage } from './purchases-page.tsx';

const funder = party('Asha Traders', DUBAI);
const godown = party('Bhiwandi', null);
const CUMIN = { id: 'b0000000-0000-4000-8000-000000000001', name: 'Cumin' };

const purchase = (id: string, date: string, rate: string, adjusts: unknown = null) => ({
  id,
  type: 'Godown',
  purchase_date: date,
  city_id: DUBAI.id,
  funder_id: funder.id,
  funder: { id: funder.id, name: funder.name },
  product_id: CUMIN.id,
  product: CUMIN,
  godown_id: godown.id,
  godown: { id: godown.id, name: godown.name },
  collector_id: null,
  collector: null,
  agent_id: null,
  agent: null,
  rate,
  quantity: '10.0000',
  returned_quantity: '0.0000',
  remaining: '10.0000',
  total: '1000.00',
  paid_amount: '0.00',
  commission: '0.00',
  customFieldValues: [],
  adjusts,
});
const OCTOBER = purchase('d0000000-0000-4000-8000-000000000001', '2026-10-10', '101.0000');
const NOVEMBER = purchase('d0000000-0000-4000-8000-000000000002', '2026-11-20', '103.0000', {
  id: OCTOBER.id,
  kind: 'Purchase',
  date: '2026-10-10',
});

function serve() {
  return mockApi((call) => {
    // The form's preview (a dry run): nothing to show.
    if (call.dryRun) return { body: { lines: [], stock: [] } };
    if (call.path === '/books/close')
      return { body: { closed_up_to: '2026-10-31', by: null, at: null, reason: null } };
    if (call.path === '/masters/cities') return page([DUBAI]);
    if (call.path === '/masters/products') return page([CUMIN]);
    if (call.path === '/masters/funders') return page([funder]);
    if (call.path === '/masters/godowns') return page([godown]);
    if (call.path === '/masters/custom-fields') return { body: [] };
    if (call.path === '/transactions/purchases' && call.method === 'GET') return page([NOVEMBER, OCTOBER]);
    if (call.path === '/transactions/purchases') return { status: 201, body: { id: 'x', position: '9' } };
    return undefined;
  });
}

const rowOf = async (rate: string) =>
  (await within(await screen.findByRole('table', { name: 'Purchases' })).findByText(rate)).closest('tr')!;

describe('Adjusting a purchase of the closed period (issue #30)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('offers Adjust on closed rows only; it opens New Purchase with the reference, which Save sends', async () => {
    const api = serve();
    renderScreen('/transactions/purchases', <PurchasesPage />);
    const october = await rowOf('101.0000');
    const adjust = await within(october).findByRole('button', { name: 'Adjust purchase' });
    expect(within(await rowOf('103.0000')).queryByRole('button', { name: 'Adjust purchase' })).toBeNull();
    expect(within(october).getByRole('button', { name: 'Edit purchase' }).getAttribute('aria-disabled')).toBe(
      'true',
    );

    fireEvent.click(adjust);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Adjusts Purchase of 10 Oct 2026');
    // Dated today (the open period), not on the record's date.
    expect(
      (within(dialog).getByRole('textbox', { name: 'Purchase Date' }) as HTMLInputElement).value,
    ).not.toBe('10 Oct 2026');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Purchase Date' }), {
      target: { value: '20 Nov 2026' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        api.calls.find((c) => c.method === 'POST' && c.path === '/transactions/purchases'),
      ).toBeDefined(),
    );
    const sent = api.calls.find((c) => c.method === 'POST' && c.path === '/transactions/purchases')!;
    expect(sent.body).toMatchObject({ adjusts: OCTOBER.id, funder_id: funder.id, rate: '101.0000' });
  });

  it('the reference can be cleared: the entry is then an ordinary one, sent without it', async () => {
    const api = serve();
    renderScreen('/transactions/purchases', <PurchasesPage />);
    fireEvent.click(await within(await rowOf('101.0000')).findByRole('button', { name: 'Adjust purchase' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Adjusts Purchase of 10 Oct 2026');
    fireEvent.click(within(dialog).getByText('Not an adjustment'));
    await waitFor(() => expect(within(dialog).queryByText('Adjusts Purchase of 10 Oct 2026')).toBeNull());
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Purchase Date' }), {
      target: { value: '21 Nov 2026' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        api.calls.find((c) => c.method === 'POST' && c.path === '/transactions/purchases'),
      ).toBeDefined(),
    );
    expect(
      api.calls.find((c) => c.method === 'POST' && c.path === '/transactions/purchases')!.body,
    ).toMatchObject({
      adjusts: null,
    });
  });

  it('an adjustment says what it adjusts in its row, and its edit keeps the reference', async () => {
    serve();
    renderScreen('/transactions/purchases', <PurchasesPage />);
    const november = await rowOf('103.0000');
    fireEvent.click(within(november).getByRole('button', { name: 'Edit purchase' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Purchase' });
    await within(dialog).findByText('Adjusts Purchase of 10 Oct 2026');
  });
});

import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MUMBAI, page, party, SHARJAH } from '../testing/parties.ts';
import { PaymentDialog } from './payment-dialog.tsx';

const kabir = party({ name: 'Kabir', city: SHARJAH, city_id: SHARJAH.id, balance: { amount: '120.50' } });
const bhiwandi = party({ name: 'Bhiwandi', city: null, city_id: null, opening_balance: '1000.00' });

function serve() {
  return mockApi((call) => {
    if (call.path === '/masters/collectors') return page([kabir]);
    if (call.path === '/masters/godowns') return page([bhiwandi]);
    if (call.path === '/transactions/payments') return { status: 201, body: { id: 'x', position: '5' } };
    return undefined;
  });
}

const mode = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;

describe('Pay and Receive (spec sections 4 and 5)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('starts in INR for a party of an INR city, otherwise in Currency', async () => {
    serve();
    const mumbaiFunder = party({ name: 'Dev', city: MUMBAI, city_id: MUMBAI.id });
    renderScreen('/', <PaymentDialog kind="Funder" party={mumbaiFunder} onClose={() => {}} />);
    await screen.findByText('Pay Dev');
    expect(mode('INR').checked).toBe(true);
    cleanup();
    renderScreen('/', <PaymentDialog kind="Agent" party={party({ name: 'Arif' })} onClose={() => {}} />);
    await screen.findByText('Receive from Arif');
    expect(mode('Currency (AED)').checked).toBe(true);
  });

  it('offers the collectors of the party’s city in Currency mode and godowns in INR mode, with balances', async () => {
    const api = serve();
    renderScreen('/', <PaymentDialog kind="Funder" party={party({ name: 'Zara' })} onClose={() => {}} />);
    await screen.findByRole('combobox', { name: 'Collector' });
    await waitFor(() => expect(api.calls.some((c) => c.path === '/masters/collectors')).toBe(true));
    const asked = api.calls.find((c) => c.path === '/masters/collectors')!;
    expect(asked.query.get('city_id')).toBe(SHARJAH.id);
    fireEvent.click(screen.getByRole('combobox', { name: 'Collector' }));
    expect((await screen.findByRole('option', { name: /Kabir/ })).textContent).toContain('120.50 AED');
    fireEvent.click(mode('INR'));
    await screen.findByRole('combobox', { name: 'Godown' });
    expect(screen.queryByRole('combobox', { name: 'Collector' })).toBeNull();
    await waitFor(() => expect(api.calls.some((c) => c.path === '/masters/godowns')).toBe(true));
  });

  it('clears the chosen collector and godown when the mode changes', async () => {
    const api = serve();
    renderScreen('/', <PaymentDialog kind="Funder" party={party({ name: 'Zara' })} onClose={() => {}} />);
    const box = await screen.findByRole('combobox', { name: 'Collector' });
    fireEvent.click(box);
    fireEvent.click(await screen.findByRole('option', { name: /Kabir/ }));
    await waitFor(() => expect((box as HTMLInputElement).value).toBe('Kabir'));
    fireEvent.click(mode('INR'));
    fireEvent.click(mode('Currency (AED)'));
    const again = await screen.findByRole('combobox', { name: 'Collector' });
    expect((again as HTMLInputElement).value).toBe('');
    // Sent now, it is refused on the collector field: the choice really was cleared.
    fireEvent.change(screen.getByLabelText(/Amount/), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await screen.findByText('Choose the collector who handles the cash');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('requires an amount above 0 and sends it as exact text', async () => {
    const api = serve();
    const onClose = vi.fn();
    renderScreen('/', <PaymentDialog kind="Funder" party={party({ name: 'Zara' })} onClose={onClose} />);
    const box = await screen.findByRole('combobox', { name: 'Collector' });
    fireEvent.click(box);
    fireEvent.click(await screen.findByRole('option', { name: /Kabir/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await screen.findByText('Amount is required');
    fireEvent.change(screen.getByLabelText(/Amount/), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await screen.findByText('Amount must be more than 0');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText(/Amount/), { target: { value: '0.10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const sent = api.calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      amount: '0.10',
      payment_mode: 'Currency',
      collector_id: kabir.id,
      godown_id: null,
    });
    expect(sent.payment_date).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
  });

  it('flags the godown and the amount of an empty Pay on the first save (issue #25)', async () => {
    const api = serve();
    const mumbaiFunder = party({ name: 'Dev', city: MUMBAI, city_id: MUMBAI.id });
    renderScreen('/', <PaymentDialog kind="Funder" party={mumbaiFunder} onClose={() => {}} />);
    await screen.findByRole('combobox', { name: 'Godown' });
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await screen.findByText('Amount is required');
    screen.getByText('Choose the godown that handles the cash');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('keeps a picker shut on Enter after choosing: Enter moves on to the amount (issue #25)', async () => {
    serve();
    renderScreen('/', <PaymentDialog kind="Funder" party={party({ name: 'Zara' })} onClose={() => {}} />);
    const box = (await screen.findByRole('combobox', { name: 'Collector' })) as HTMLInputElement;
    box.focus();
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    await screen.findByRole('option', { name: /Kabir/ });
    await waitFor(() => expect(box.getAttribute('aria-activedescendant')).toBeTruthy());
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(box.value).toBe('Kabir'));
    expect(box.getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/Amount/)));
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});

import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, party } from '../../testing/parties.ts';
import { ClearingDialog } from './clearing-dialog.tsx';

const bhiwandi = party({ name: 'Bhiwandi', city: null, city_id: null, clearing_balance: '350.00' });
const jebel = party({ name: 'Jebel Ali', city: null, city_id: null });

describe('Pay Clearing (spec section 5)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('starts at the clearing balance; confirm needs a paying godown and an amount above 0', async () => {
    const api = mockApi((call) => {
      if (call.path === '/masters/godowns') return page([bhiwandi, jebel]);
      if (call.path === '/transactions/clearing-payouts')
        return { status: 201, body: { id: 'x', position: '3' } };
      return undefined;
    });
    const onClose = vi.fn();
    renderScreen('/', <ClearingDialog godown={bhiwandi} onClose={onClose} />);
    const amount = (await screen.findByLabelText(/^Amount/)) as HTMLInputElement;
    const confirm = screen.getByRole('button', { name: 'Pay Clearing' }) as HTMLButtonElement;
    expect(amount.value).toBe('350.00');
    expect(confirm.disabled).toBe(true); // no paying godown
    fireEvent.click(screen.getByRole('combobox', { name: 'Paying Godown' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Jebel Ali/ }));
    await waitFor(() => expect(confirm.disabled).toBe(false));
    fireEvent.change(amount, { target: { value: '0.00' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(amount, { target: { value: '100.25' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      godown_id: bhiwandi.id,
      payer_entity_type: 'Godown',
      payer_entity_id: jebel.id,
      amount: '100.25',
    });
  });
});

import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DUBAI, KARACHI, page, party } from '../../testing/fixtures.ts';
import { TransferDialog } from './transfer-dialog.tsx';
import { autoRate, estimatedReceived } from './transfer-rate.ts';
import { TransfersPage } from './transfers-page.tsx';

const rashid = party('Rashid Dubai', DUBAI);
const bilal = party('Bilal Dubai', DUBAI);
const imran = party('Imran Karachi', KARACHI);

const TRANSFER = {
  id: 't0000000-0000-4000-8000-000000000001',
  transfer_date: '2026-11-22',
  from_collector_id: rashid.id,
  to_collector_id: imran.id,
  sent_amount: '1000.00',
  transfer_charge: '50.00',
  operation: '*',
  rate: '75.5143',
  amount: '71738.59',
  remarks: 'Hawala',
  fromCollector: { id: rashid.id, name: 'Rashid Dubai', city: { name: 'Dubai', currency_name: 'AED' } },
  toCollector: { id: imran.id, name: 'Imran Karachi', city: { name: 'Karachi', currency_name: 'PKR' } },
};

function serve(post: { status: number; body: unknown } = { status: 201, body: { id: 'x', position: '9' } }) {
  return mockApi((call) => {
    if (call.path === '/masters/cities') return page([DUBAI, KARACHI]);
    if (call.path === '/masters/collectors') return page([rashid, bilal, imran]);
    if (call.path === '/transactions/transfers' && call.method === 'GET') return page([TRANSFER]);
    if (call.path === '/transactions/transfers') return post;
    return undefined;
  });
}

const NOW = new Date(2026, 10, 24);
const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const rate = () => field(/^Rate/);
const estimateText = () =>
  screen.queryAllByRole('status').find((s) => s.textContent?.startsWith('Estimated'))?.textContent ?? null;

async function choose(label: string, name: string) {
  fireEvent.click(await screen.findByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: new RegExp(`^${name}`) }));
}

describe('New Transfer (spec sections 3 and 5)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('works the rate out exactly: same city 1.0000, else sender rate / receiver rate to 4 places', () => {
    expect(autoRate(DUBAI, KARACHI)).toBe('75.5143'); // 22.6543 / 0.3 = 75.51433…
    expect(autoRate(KARACHI, DUBAI)).toBe('0.0132'); // 0.013242…
    expect(autoRate(DUBAI, DUBAI)).toBe('1.0000');
    expect(autoRate(DUBAI, undefined)).toBeNull();
    expect(autoRate(DUBAI, { ...KARACHI, rate: '0' })).toBeNull();
  });

  it('sets the rate and * once both collectors of two cities are chosen', async () => {
    serve();
    renderScreen('/', <TransferDialog now={NOW} onClose={() => {}} />);
    await screen.findByRole('dialog');
    await waitFor(() => expect(rate().value).toBe('1.0000'));
    fireEvent.click(screen.getByRole('radio', { name: 'Divide (÷)' }));
    await choose('From Collector', 'Rashid Dubai');
    // One collector alone sets nothing.
    expect(rate().value).toBe('1.0000');
    await choose('To Collector', 'Imran Karachi');
    await waitFor(() => expect(rate().value).toBe('75.5143'));
    expect((screen.getByRole('radio', { name: 'Multiply (×)' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText('Dubai 22.6543 ÷ Karachi 0.3000')).toBeTruthy();
    // Both in Dubai: 1.0000 again.
    await choose('To Collector', 'Bilal Dubai');
    await waitFor(() => expect(rate().value).toBe('1.0000'));
  });

  it('shows the estimated amount received only when sent - charge >= 0 and the rate > 0', async () => {
    serve();
    renderScreen('/', <TransferDialog now={NOW} onClose={() => {}} />);
    await screen.findByRole('dialog');
    await choose('From Collector', 'Rashid Dubai');
    await choose('To Collector', 'Imran Karachi');
    await waitFor(() => expect(rate().value).toBe('75.5143'));
    expect(estimateText()).toBeNull(); // nothing to send yet
    fireEvent.change(field(/^Amount to Send/), { target: { value: '1000' } });
    fireEvent.change(field(/^Transfer Charge/), { target: { value: '50' } });
    // (1000 - 50) x 75.5143 = 71738.585 -> 71,738.59 PKR
    await waitFor(() => expect(estimateText()).toBe('Estimated amount received: 71,738.59 PKR'));
    fireEvent.click(screen.getByRole('radio', { name: 'Divide (÷)' }));
    // 950 / 75.5143 = 12.5804…
    await waitFor(() => expect(estimateText()).toBe('Estimated amount received: 12.58 PKR'));
    fireEvent.change(field(/^Transfer Charge/), { target: { value: '1000.01' } });
    await waitFor(() => expect(estimateText()).toBeNull());
    fireEvent.change(field(/^Transfer Charge/), { target: { value: '1000' } });
    await waitFor(() => expect(estimateText()).toBe('Estimated amount received: 0.00 PKR'));
    fireEvent.change(rate(), { target: { value: '0' } });
    await waitFor(() => expect(estimateText()).toBeNull());
    // The pure rule, as floats would get it wrong: 0.1 x 3 = 0.30000000000000004.
    expect(estimatedReceived('0.10', '', '3', '*')).toBe('0.30');
    expect(estimatedReceived('', '0', '1', '*')).toBeNull();
  });

  it('sends the transfer as exact text and puts a refusal’s errors[].path on its field', async () => {
    const msg = 'Choose two different collectors';
    const api = serve({
      status: 400,
      body: { message: 'The request is not valid.', errors: [{ path: 'to_collector_id', msg }] },
    });
    const onClose = vi.fn();
    renderScreen('/', <TransferDialog now={NOW} onClose={onClose} />);
    await screen.findByRole('dialog');
    await choose('From Collector', 'Rashid Dubai');
    await choose('To Collector', 'Imran Karachi');
    await waitFor(() => expect(rate().value).toBe('75.5143'));
    fireEvent.change(field(/^Amount to Send/), { target: { value: '1000.00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const to = screen.getByRole('combobox', { name: 'To Collector' });
    await waitFor(() => expect(to.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText(msg)).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
    expect(api.calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      transfer_date: '2026-11-24T00:00:00.000Z',
      from_collector_id: rashid.id,
      to_collector_id: imran.id,
      sent_amount: '1000.00',
      transfer_charge: '0.00',
      operation: '*',
      rate: '75.5143',
    });
  });

  it('lists transfers with each amount in its collector’s currency, filtered by collector and dates', async () => {
    const api = serve();
    renderScreen(
      `/transactions/transfers?from_collector_id=${rashid.id}&startDate=2026-11-01`,
      <TransfersPage />,
    );
    const table = await screen.findByRole('table', { name: 'Collector Transfers' });
    const row = (await within(table).findByText('Hawala')).closest('tr')!;
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Date',
      'From',
      'To',
      'Amount Sent',
      'Charge',
      'Rate',
      'Amount Received',
      'Remarks',
    ]);
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual([
      '22 Nov 2026',
      'Rashid Dubai (Dubai)',
      'Imran Karachi (Karachi)',
      '1,000.00 AED',
      '50.00 AED',
      '× 75.5143',
      '71,738.59 PKR',
      'Hawala',
    ]);
    const asked = api.calls.find((c) => c.path === '/transactions/transfers')!;
    expect(asked.query.get('from_collector_id')).toBe(rashid.id);
    expect(asked.query.get('startDate')).toBe('2026-11-01T00:00:00.000Z');
    expect(screen.getByRole('button', { name: 'New Transfer' })).toBeTruthy();
  });
});

import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, party, SHARJAH } from '../../testing/parties.ts';
import { SALARY_PAID_FAILED, SalaryDialog, salaryLeft, salaryYears } from './salary-dialog.tsx';

const NOW = new Date(2026, 10, 24); // 24 Nov 2026
const kabir = party({ name: 'Kabir', salary_per_month: '3000.00', city: SHARJAH, city_id: SHARJAH.id });
const omar = party({ name: 'Omar', city: SHARJAH, city_id: SHARJAH.id });
const godown = party({ name: 'Bhiwandi', city: null, city_id: null });

/** What has been paid, per 'month/year'. */
function serve(paid: Record<string, string>, fail = false) {
  return mockApi((call) => {
    if (call.path === '/transactions/salary-payments/paid-for-month') {
      if (fail)
        return { status: 500, body: { message: 'Something went wrong on the server. Please try again.' } };
      return { body: { totalPaid: paid[`${call.query.get('month')}/${call.query.get('year')}`] ?? '0.00' } };
    }
    if (call.path === '/masters/collectors') return page([kabir, omar]);
    if (call.path === '/masters/godowns') return page([godown]);
    if (call.path === '/transactions/salary-payments')
      return { status: 201, body: { id: 'x', position: '9' } };
    return undefined;
  });
}

const amount = () => screen.getByLabelText(/^Amount/) as HTMLInputElement;
const confirm = () => screen.getByRole('button', { name: 'Pay Salary' }) as HTMLButtonElement;
const open = () => renderScreen('/', <SalaryDialog collector={kabir} now={NOW} onClose={() => {}} />);

describe('Pay Salary (spec sections 4 and 5)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('Full: the amount is read-only, what is left of the chosen month, and follows the month', async () => {
    serve({ '11/2026': '1000.00', '10/2026': '3000.00' });
    open();
    await waitFor(() => expect(amount().value).toBe('2000.00'));
    expect(amount().readOnly).toBe(true);
    fireEvent.change(screen.getByLabelText(/^Month/), { target: { value: '10' } });
    await waitFor(() => expect(amount().value).toBe('0.00'));
    // Nothing left: max(0, ...) and confirm disabled.
    expect(confirm().disabled).toBe(true);
    expect(salaryLeft('3000.00', '3500.00')).toBe('0.00');
    expect(salaryLeft('3000.00', '2999.99')).toBe('0.01');
  });

  it('Advance starts empty and takes what is typed; confirm is disabled at 0', async () => {
    serve({});
    open();
    await waitFor(() => expect(amount().value).toBe('3000.00'));
    fireEvent.click(screen.getByRole('radio', { name: 'Advance' }));
    await waitFor(() => expect(amount().value).toBe(''));
    expect(amount().readOnly).toBe(false);
    // Choose who pays, so the amount alone decides.
    fireEvent.click(screen.getByRole('combobox', { name: 'Paid From (Collector)' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Omar/ }));
    fireEvent.change(amount(), { target: { value: '0' } });
    expect(confirm().disabled).toBe(true);
    fireEvent.change(amount(), { target: { value: '250.5' } });
    expect(confirm().disabled).toBe(false);
  });

  it('Currency is paid by a collector of the city, the one paid shown as Self; INR by a godown', async () => {
    const api = serve({});
    open();
    fireEvent.click(await screen.findByRole('combobox', { name: 'Paid From (Collector)' }));
    expect(await screen.findByRole('option', { name: /^Self/ })).toBeTruthy();
    expect(screen.getByRole('option', { name: /^Omar/ })).toBeTruthy();
    expect(api.calls.find((c) => c.path === '/masters/collectors')?.query.get('city_id')).toBe(SHARJAH.id);
    fireEvent.click(screen.getByRole('radio', { name: 'INR' }));
    fireEvent.click(await screen.findByRole('combobox', { name: 'Paid From (Godown)' }));
    expect(await screen.findByRole('option', { name: /^Bhiwandi/ })).toBeTruthy();
  });

  it('offers the current year and the 4 before it, and the twelve months', async () => {
    serve({});
    open();
    const years = [...(screen.getByLabelText(/^Year/) as HTMLSelectElement).options].map((o) => o.value);
    expect(years).toEqual(['2026', '2025', '2024', '2023', '2022']);
    expect(salaryYears(NOW)).toEqual(years);
    expect((screen.getByLabelText(/^Month/) as HTMLSelectElement).options).toHaveLength(12);
  });

  it('says so when the amount already paid cannot be fetched', async () => {
    serve({}, true);
    open();
    expect((await screen.findByRole('alert')).textContent).toContain(SALARY_PAID_FAILED);
    expect(confirm().disabled).toBe(true);
  });

  it('puts the server’s refusal on the amount field and stays open', async () => {
    const message =
      'Only 2000.00 of the salary of Kabir for 11/2026 is left to pay; this payment is 2500.00.';
    mockApi((call) => {
      if (call.path === '/transactions/salary-payments/paid-for-month')
        return { body: { totalPaid: '1000.00' } };
      if (call.path === '/masters/collectors') return page([kabir, omar]);
      if (call.path === '/transactions/salary-payments')
        return { status: 409, body: { message, errors: [{ msg: message, path: 'amount' }] } };
      return undefined;
    });
    const onClose = vi.fn();
    renderScreen('/', <SalaryDialog collector={kabir} now={NOW} onClose={onClose} />);
    fireEvent.click(screen.getByRole('radio', { name: 'Advance' }));
    fireEvent.click(await screen.findByRole('combobox', { name: 'Paid From (Collector)' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Self/ }));
    fireEvent.change(amount(), { target: { value: '2500' } });
    fireEvent.click(confirm());
    await waitFor(() => expect(amount().getAttribute('aria-invalid')).toBe('true'));
    const hint = document.getElementById(amount().getAttribute('aria-describedby')!.split(' ')[0]!);
    expect(hint?.textContent).toBe(message);
    // On its field only (Fluent announces a field's error as an alert): not repeated in the dialog's.
    const shown = screen.queryAllByRole('alert').filter((a) => a.textContent?.includes('Only 2000.00'));
    expect(shown).toEqual([hint]);
    expect(onClose).not.toHaveBeenCalled();
  });
});

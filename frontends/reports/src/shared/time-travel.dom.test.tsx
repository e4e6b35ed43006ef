import { renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TimeTravelBar, useTimeTravel } from './time-travel.tsx';

function Report() {
  const tt = useTimeTravel();
  return <TimeTravelBar tt={tt} />;
}

const where = () => new URLSearchParams(screen.getByTestId('where').textContent!.split('?')[1] ?? '');
const box = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (el: HTMLElement, text: string) => {
  fireEvent.focus(el);
  fireEvent.change(el, { target: { value: text } });
};

describe('the time-travel bar, by keyboard', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Asia/Kolkata';
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });
  afterEach(cleanup);

  it('Enter in As of applies the day; Enter in As known at applies the moment with it', async () => {
    renderScreen('/financials/daywise-report?tab=x', <Report />);
    fireEvent.click(screen.getByRole('button', { name: 'Time travel' }));
    expect(screen.getAllByText(/^24-hour time, Asia\/(Kolkata|Calcutta) \(UTC\+05:30\)$/)).toHaveLength(2);
    type(box('As of'), '20/11/2026');
    fireEvent.keyDown(box('As of'), { key: 'Enter' });
    await waitFor(() => expect(where().get('asOf')).toBe('2026-11-20'));
    expect(box('As of').value).toBe('20 Nov 2026');

    type(box('As known at'), '25 Nov 2026 14:30');
    fireEvent.keyDown(box('As known at'), { key: 'Enter' });
    await waitFor(() => expect(where().get('knownAt')).toBe('2026-11-25T09:00:00.000Z'));
    expect(where().get('asOf')).toBe('2026-11-20');
    expect(where().get('tab')).toBe('x');
    expect(box('As known at').value).toBe('25 Nov 2026 14:30');
    expect(screen.getByText('The books as of 20 Nov 2026, as recorded at 25 Nov 2026 14:30.')).toBeTruthy();
  });

  it('a moment that is none stays typed with its message, and neither Enter nor Apply applies anything', async () => {
    renderScreen('/financials/daywise-report?knownAt=2026-11-25T09%3A00%3A05.123Z', <Report />);
    expect(box('As known at').value).toBe('25 Nov 2026 14:30:05');
    type(box('Compare with'), '11/24/2026 10:00 PM');
    fireEvent.keyDown(box('Compare with'), { key: 'Enter' });
    await screen.findByText(
      '11/24/2026 10:00 PM is not a moment: type a date and a 24-hour time, as in 25 Nov 2026 14:30.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(box('Compare with').value).toBe('11/24/2026 10:00 PM');
    expect(where().get('compare')).toBeNull();
    // Typed right, Apply takes it; the moment already shown is kept to the millisecond.
    type(box('Compare with'), '24/11/2026 22:00');
    fireEvent.blur(box('Compare with'));
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(where().get('compare')).toBe('2026-11-24T16:30:00.000Z'));
    expect(where().get('knownAt')).toBe('2026-11-25T09:00:05.123Z');
    expect(screen.queryByText(/is not a moment/)).toBeNull();
  });
});

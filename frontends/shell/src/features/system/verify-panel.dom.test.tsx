import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Verification } from './api.ts';
import { VerifyPanel } from './verify-panel.tsx';

afterEach(cleanup);

const intact: Verification = {
  status: 'intact',
  summary: 'The books are intact up to position 1200 (1187 events, chain head aaaaaaaaaaaa).',
  checked: 1187,
  total: 1187,
  intactUpTo: '1200',
  chainHead: 'a'.repeat(64),
  sealedUpTo: '1200',
  head: '1200',
  unsealed: 0,
  startedAt: '2026-11-25T02:00:00.000Z',
  finishedAt: '2026-11-25T02:00:01.000Z',
};
const broken: Verification = {
  ...intact,
  status: 'broken',
  checked: 640,
  intactUpTo: '655',
  chainHead: 'c'.repeat(64),
  unsealed: 2,
  broken: {
    position: '656',
    reason: 'altered',
    stored: 'd'.repeat(64),
    recomputed: 'e'.repeat(64),
    type: 'PurchaseRecorded',
    streamId: 'purchase-7',
    recordedAt: '2026-11-20T09:30:00.000Z',
  },
};

describe('System screen, Verify the books', () => {
  it('runs only when asked, then says intact up to the position', async () => {
    const api = mockApi((call) => (call.path === '/admin/verify' ? { body: intact } : undefined));
    renderScreen('/settings/system', <VerifyPanel />);
    const region = await screen.findByRole('region', { name: 'Verify the books' });
    expect(api.calls.some((c) => c.path === '/admin/verify')).toBe(false);
    fireEvent.click(within(region).getByRole('button', { name: 'Verify the books' }));
    expect(await within(region).findByText('Intact up to position 1200')).toBeTruthy();
    expect(region.textContent).toContain('Every one of the 1187 sealed events matches its seal.');
    expect(region.textContent).toContain(`${'a'.repeat(64)} (at 1200)`);
    expect(api.calls.filter((c) => c.path === '/admin/verify')).toHaveLength(1);
  });

  it('names the first broken position, what is stored and recomputed, and from where nothing can be trusted', async () => {
    mockApi((call) => (call.path === '/admin/verify' ? { body: broken } : undefined));
    renderScreen('/settings/system', <VerifyPanel />);
    const region = await screen.findByRole('region', { name: 'Verify the books' });
    fireEvent.click(within(region).getByRole('button', { name: 'Verify the books' }));
    expect(await within(region).findByText('Broken at position 656')).toBeTruthy();
    const text = region.textContent ?? '';
    expect(text).toContain(
      'Nothing from position 656 on can be trusted; the log is intact up to position 655.',
    );
    expect(text).toContain('PurchaseRecorded in purchase-7');
    expect(text).toContain('d'.repeat(64));
    expect(text).toContain('e'.repeat(64));
    expect(text).toContain('2 newer events, not checked');
  });

  it('shows the server’s refusal', async () => {
    mockApi(() => ({ status: 403, body: { message: 'Your role (Viewer) cannot verify the books.' } }));
    renderScreen('/settings/system', <VerifyPanel />);
    const region = await screen.findByRole('region', { name: 'Verify the books' });
    fireEvent.click(within(region).getByRole('button', { name: 'Verify the books' }));
    await waitFor(() => expect(region.textContent).toContain('Your role (Viewer) cannot verify the books.'));
  });
});

describe('System screen, Verify the books, while it runs', () => {
  it('shows how far it is from the progress route, then the answer', async () => {
    let answer: (() => void) | undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const api = mockApi(async (call) => {
      if (call.path === '/admin/verify/progress')
        return { body: { running: true, checked: 40000, total: 210000 } };
      if (call.path === '/admin/verify') {
        await held;
        return { body: intact };
      }
    });
    renderScreen('/settings/system', <VerifyPanel />);
    const region = await screen.findByRole('region', { name: 'Verify the books' });
    fireEvent.click(within(region).getByRole('button', { name: 'Verify the books' }));
    await waitFor(() => expect(region.textContent).toContain('Verifying: 40,000 of 2,10,000 events…'));
    expect(
      (within(region).getByRole('button', { name: 'Verify the books' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    answer!();
    expect(await within(region).findByText('Intact up to position 1200')).toBeTruthy();
    expect(api.calls.some((c) => c.path === '/admin/verify/progress')).toBe(true);
  });
});

import { mockApi, renderScreen } from '@bahi/ui/testing';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Backup, BackupsStatus } from './api.ts';
import { BackupsPanel } from './backups-panel.tsx';

afterEach(cleanup);

const backup = (over: Partial<Backup> = {}): Backup => ({
  file: 'bahi-backup-2026-11-25T02-00-00Z-p1200.ndjson.gz',
  format: 'bahi-event-log-backup',
  formatVersion: 1,
  schemaVersion: 2,
  source: 'pglite',
  createdAt: '2026-11-25T02:00:00.000Z',
  completedAt: '2026-11-25T02:00:01.000Z',
  events: 1187,
  headPosition: '1200',
  chainHead: 'a'.repeat(64),
  credentials: 1,
  credentialsHash: 'b'.repeat(64),
  bytes: 180_000,
  ...over,
});
const status = (over: Partial<BackupsStatus> = {}): BackupsStatus => ({
  directory: '/srv/bahi/backups',
  daily: true,
  keep: 7,
  running: false,
  last: backup(),
  ...over,
});

describe('System screen, Backups', () => {
  it('shows the last backup, and "Back up now" takes one and shows it', async () => {
    let current = status({ daily: false, last: null });
    const api = mockApi((call) => {
      if (call.method === 'GET' && call.path === '/admin/backups') return { body: current };
      if (call.method === 'POST' && call.path === '/admin/backups') {
        current = status({ daily: false, last: backup({ events: 1300, headPosition: '1310' }) });
        return { status: 201, body: current.last };
      }
    });
    renderScreen('/settings/system', <BackupsPanel />);
    const region = await screen.findByRole('region', { name: 'Backups' });
    expect(await within(region).findByText('No backup yet.')).toBeTruthy();
    expect(region.textContent).toContain('Set BAHI_BACKUP_DIR for a daily backup.');
    fireEvent.click(within(region).getByRole('button', { name: 'Back up now' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST')).toBe(true));
    await waitFor(() => expect(region.textContent).toContain('1300 (up to position 1310)'));
    expect(region.textContent).toContain('a'.repeat(64));
  });

  it('says a daily backup is on; a refusal shows the server’s message', async () => {
    mockApi((call) =>
      call.method === 'POST'
        ? { status: 409, body: { message: 'A backup is being taken already; wait for it to finish.' } }
        : { body: status() },
    );
    renderScreen('/settings/system', <BackupsPanel />);
    const region = await screen.findByRole('region', { name: 'Backups' });
    await waitFor(() =>
      expect(region.textContent).toContain(
        'A backup is taken every day into /srv/bahi/backups; the newest 7 are kept.',
      ),
    );
    expect(region.textContent).toContain('1187 (up to position 1200)');
    fireEvent.click(within(region).getByRole('button', { name: 'Back up now' }));
    expect(
      await within(region).findByText('A backup is being taken already; wait for it to finish.'),
    ).toBeTruthy();
  });

  it('on a distributed deployment (no such route) points to npm run backup', async () => {
    mockApi(() => ({ status: 404, body: { message: 'Not found' } }));
    renderScreen('/settings/system', <BackupsPanel />);
    const region = await screen.findByRole('region', { name: 'Backups' });
    await waitFor(() => expect(region.textContent).toContain('npm run backup'));
    expect(within(region).queryByRole('button', { name: 'Back up now' })).toBeNull();
  });
});

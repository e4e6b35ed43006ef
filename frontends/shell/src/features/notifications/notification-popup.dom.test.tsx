import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../testing/render.tsx';
import type { Notification } from './api.ts';
import { NotificationBell } from './notification-popup.tsx';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const note = (over: Partial<Notification>): Notification => ({
  id: crypto.randomUUID(),
  title: 'Title',
  message: 'Message',
  type: 'info',
  is_read: false,
  link: null,
  created_at: minutesAgo(5),
  ...over,
});

describe('notification popup', () => {
  const fetchMock = vi.fn<typeof fetch>();
  let list: { notifications: Notification[]; unreadCount: number };
  beforeEach(() => {
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (url, init) => {
      const u = String(url);
      if (init?.method === 'POST' && u.endsWith('/read')) {
        const id = u.split('/').at(-2);
        list = {
          notifications: list.notifications.map((n) => (n.id === id ? { ...n, is_read: true } : n)),
          unreadCount: list.unreadCount - 1,
        };
        return json({ id, position: '10' });
      }
      if (init?.method === 'POST' && u.endsWith('/read-all')) {
        list = { notifications: list.notifications.map((n) => ({ ...n, is_read: true })), unreadCount: 0 };
        return json({ position: '11' });
      }
      return json(list);
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks for the 7 most recent, badges the unread count, marks one read and follows its link', async () => {
    const stock = note({
      title: 'Low stock',
      message: 'Godown A is low',
      type: 'warning',
      link: '/reports/stock',
    });
    list = {
      notifications: [stock, note({ title: 'Old one', is_read: true, created_at: minutesAgo(180) })],
      unreadCount: 1,
    };
    renderAt('/', <NotificationBell />);
    await waitFor(() => expect(screen.getByTestId('unread-badge').textContent).toBe('1'));
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/notifications?limit=7');

    fireEvent.click(screen.getByRole('button', { name: 'Notifications, 1 unread' }));
    const item = await screen.findByRole('button', { name: 'Unread: Low stock' });
    expect(item.getAttribute('data-unread')).toBe('true');
    expect(screen.getByText('5 minutes ago')).toBeTruthy();
    expect(screen.getByText('3 hours ago')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View all notifications' }).getAttribute('href')).toBe(
      '/notifications',
    );

    fireEvent.click(item);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/reports/stock'));
    const posted = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(String(posted?.[0])).toBe(`/api/notifications/${stock.id}/read`);
    await waitFor(() => expect(screen.queryByTestId('unread-badge')).toBeNull());
  });

  it('offers Mark all as read only with unread ones, and says when there are none', async () => {
    list = { notifications: [], unreadCount: 0 };
    renderAt('/', <NotificationBell />);
    fireEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No new notifications')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('Mark all as read clears the badge', async () => {
    list = { notifications: [note({ title: 'A' }), note({ title: 'B' })], unreadCount: 2 };
    renderAt('/', <NotificationBell />);
    await waitFor(() => expect(screen.getByTestId('unread-badge').textContent).toBe('2'));
    fireEvent.click(screen.getByRole('button', { name: 'Notifications, 2 unread' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.queryByTestId('unread-badge')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it("a 'Report ready' link is a file: fetched with the token and saved, not navigated to", async () => {
    const ready = note({ title: 'Report ready', link: '/api/reports/files/abc123' });
    list = { notifications: [ready], unreadCount: 1 };
    const inner = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (url, init) =>
      String(url) === '/api/reports/files/abc123'
        ? new Response('%PDF', {
            status: 200,
            headers: {
              'content-type': 'application/pdf',
              'content-disposition': 'attachment; filename="ledger.pdf"',
            },
          })
        : inner(url, init),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    renderAt('/', <NotificationBell />);
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Unread: Report ready' }));
    await waitFor(() => expect(saved).toEqual(['ledger.pdf']));
    expect(screen.getByTestId('where').textContent).toBe('/');
    click.mockRestore();
  });
});

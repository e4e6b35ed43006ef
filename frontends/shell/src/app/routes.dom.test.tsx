import { ADMIN, mockApi } from '@bahi/ui/testing';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeSession, renderAt } from '../testing/render.tsx';
import { AppRoutes } from './app.tsx';

/** Whatever the layout and the screens ask for: empty answers. */
const empty = () =>
  mockApi((call) => ({
    body:
      call.path === '/notifications' ? { notifications: [], unreadCount: 0 } : { data: [], totalItems: 0 },
  }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the operator screens are Admin only', () => {
  it.each(['/settings/system', '/settings/whatsapp-outbox'])('%s sends a Manager to /', async (path) => {
    empty();
    renderAt(path, <AppRoutes />, fakeSession({ user: { ...ADMIN, role: 'Manager' } }));
    expect(await screen.findByTestId('where')).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/');
  });

  it.each([
    ['/settings/system', 'System'],
    ['/settings/whatsapp-outbox', 'WhatsApp outbox'],
  ])('%s opens for an Admin', async (path, title) => {
    empty();
    renderAt(path, <AppRoutes />);
    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe(path);
  });
});

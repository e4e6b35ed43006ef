import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeSession, renderAt } from '../testing/render.tsx';
import { Drawer } from './drawer.tsx';
import { activeGroups, isActive, isGroup, navFor } from './nav.ts';

afterEach(cleanup);

const labels = (role: Parameters<typeof navFor>[0]) =>
  navFor(role).flatMap((e) => (isGroup(e) ? [e.label, ...e.items.map((i) => i.label)] : [e.label]));

describe('drawer rules', () => {
  it('shows Settings to Admin (all five) and Manager (custom fields only), hides it from others', () => {
    expect(labels('Admin')).toEqual(
      expect.arrayContaining([
        'Settings',
        'Users',
        'Activity Log',
        'Custom Fields',
        'System',
        'WhatsApp outbox',
      ]),
    );
    const manager = labels('Manager');
    expect(manager).toContain('Custom Fields');
    for (const adminOnly of ['Users', 'Activity Log', 'System', 'WhatsApp outbox'])
      expect(manager).not.toContain(adminOnly);
    for (const role of ['Collector', 'Viewer'] as const) {
      expect(labels(role)).not.toContain('Settings');
      expect(labels(role)).toContain('Balances');
    }
  });

  it('hides a group with no visible children', () => {
    const nav = [
      {
        label: 'Admin things',
        key: 'x',
        items: [{ label: 'Only admins', path: '/x', roles: ['Admin' as const] }],
      },
    ];
    expect(navFor('Viewer', nav)).toEqual([]);
    expect(navFor('Admin', nav)).toHaveLength(1);
  });

  it('marks the item whose path equals or prefixes the current path, by whole segments', () => {
    expect(isActive('/reports/balances', '/reports/balances')).toBe(true);
    expect(isActive('/masters/funders', '/masters/funders/123')).toBe(true);
    expect(isActive('/reports/stock', '/reports/stocks')).toBe(false);
    expect(isActive('/', '/masters/cities')).toBe(false);
    expect(isActive('/', '/')).toBe(true);
    expect(activeGroups(navFor('Admin'), '/transactions/sales')).toEqual(['transactions']);
  });

  it('renders the active item highlighted inside its automatically expanded group', () => {
    renderAt('/transactions/sales', <Drawer userRole="Viewer" />, fakeSession());
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const sales = within(nav).getByRole('link', { name: 'Sales' });
    expect(sales.getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('button', { name: 'Transactions' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    expect(within(nav).getByRole('button', { name: 'Masters' }).getAttribute('aria-expanded')).toBe('false');
    expect(within(nav).queryByRole('link', { name: 'Cities' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Settings' })).toBeNull();
    fireEvent.click(within(nav).getByRole('button', { name: 'Masters' }));
    expect(within(nav).getByRole('link', { name: 'Cities' }).getAttribute('aria-current')).toBeNull();
  });
});

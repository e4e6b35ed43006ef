import type { Role } from '@bahi/ui';

export interface NavItem {
  label: string;
  path: string;
  /** Who sees it; everyone signed in when absent. */
  roles?: Role[];
}

export interface NavGroup {
  label: string;
  key: string;
  roles?: Role[];
  items: NavItem[];
}

export type NavEntry = NavItem | NavGroup;
export const isGroup = (e: NavEntry): e is NavGroup => 'items' in e;

const ADMIN: Role[] = ['Admin'];
const ADMIN_MANAGER: Role[] = ['Admin', 'Manager'];

/** The drawer (spec section 2, Shell). */
export const NAV: NavEntry[] = [
  { label: 'Dashboard', path: '/' },
  {
    label: 'Masters',
    key: 'masters',
    items: [
      { label: 'Cities', path: '/masters/cities' },
      { label: 'Products', path: '/masters/products' },
      { label: 'Funders', path: '/masters/funders' },
      { label: 'Agents', path: '/masters/agents' },
      { label: 'Godowns', path: '/masters/godowns' },
      { label: 'Collectors', path: '/masters/collectors' },
    ],
  },
  {
    label: 'Transactions',
    key: 'transactions',
    items: [
      { label: 'Purchases', path: '/transactions/purchases' },
      { label: 'Sales', path: '/transactions/sales' },
      { label: 'Bulk Sale', path: '/transactions/bulk-sale' },
      { label: 'Transfers', path: '/transactions/transfers' },
      { label: 'Expenses', path: '/transactions/expenses' },
      { label: 'Incomes', path: '/transactions/incomes' },
    ],
  },
  {
    label: 'Reports',
    key: 'reports',
    items: [
      { label: 'Balances', path: '/reports/balances' },
      { label: 'Stock', path: '/reports/stock' },
      { label: 'Payments', path: '/reports/payments' },
      { label: 'Salary Report', path: '/reports/salary-report' },
    ],
  },
  {
    label: 'Financials',
    key: 'financials',
    items: [
      { label: 'Day-wise Report', path: '/financials/daywise-report' },
      { label: 'Cashbook Report', path: '/financials/cashbook-report' },
    ],
  },
  {
    label: 'Settings',
    key: 'settings',
    roles: ADMIN_MANAGER,
    items: [
      { label: 'Users', path: '/settings/users', roles: ADMIN },
      { label: 'Activity Log', path: '/settings/activity-log', roles: ADMIN },
      { label: 'Custom Fields', path: '/settings/custom-fields', roles: ADMIN_MANAGER },
      { label: 'Import', path: '/settings/import', roles: ADMIN_MANAGER },
      { label: 'System', path: '/settings/system', roles: ADMIN },
      { label: 'Close the books', path: '/settings/books', roles: ADMIN },
      { label: 'WhatsApp outbox', path: '/settings/whatsapp-outbox', roles: ADMIN },
    ],
  },
];

const allowed = (roles: Role[] | undefined, role: Role) => !roles || roles.includes(role);

/** What a role sees: items it may open; a group with no visible children is hidden. */
export function navFor(role: Role, nav: NavEntry[] = NAV): NavEntry[] {
  const out: NavEntry[] = [];
  for (const entry of nav) {
    if (!allowed(entry.roles, role)) continue;
    if (isGroup(entry)) {
      const items = entry.items.filter((i) => allowed(i.roles, role));
      if (items.length) out.push({ ...entry, items });
    } else {
      out.push(entry);
    }
  }
  return out;
}

/**
 * An item is active when its path equals the current path or is a prefix of it (by whole
 * segments, so /reports/stock does not light up for /reports/stocks). The dashboard (/) is
 * active only on / itself, or it would be active everywhere.
 */
export function isActive(path: string, pathname: string): boolean {
  if (path === '/') return pathname === '/';
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** The groups to expand automatically: those with an active child. */
export function activeGroups(entries: NavEntry[], pathname: string): string[] {
  return entries
    .filter(isGroup)
    .flatMap((g) => (g.items.some((i) => isActive(i.path, pathname)) ? [g.key] : []));
}

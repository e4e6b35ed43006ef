import { ROLES, type Role } from '@bahi/contracts/roles';

/**
 * Who may write what (ACCOUNTING.md section 6). Admin: everything. Manager: everything
 * but users, the activity log and the read models. Collector: reads, plus payments, receipts
 * and collector transfers. Viewer: reads only. The UI hides buttons; this decides.
 *
 * ACCOUNTING.md keeps "the license" for Admins: no API route changes a license (it is a signed
 * file installed on the server), so there is no such area. Re-checking it is its own area, open
 * to every role: the License Invalid page, with its Retry button, is what every signed-in user
 * sees while the license is not valid (product spec sections 2 and 4), and a re-check only
 * re-reads the installed file (docs/decisions.md, "Reads that write").
 */
export type WriteArea =
  | 'masters'
  | 'users'
  | 'custom-fields'
  | 'transactions'
  | 'payments'
  | 'transfers'
  | 'activity-log'
  | 'license-check'
  | 'read-models'
  | 'backups'
  | 'books';

const WRITERS: Record<WriteArea, readonly Role[]> = {
  masters: ['Admin', 'Manager'],
  users: ['Admin'],
  'custom-fields': ['Admin', 'Manager'],
  transactions: ['Admin', 'Manager'],
  payments: ['Admin', 'Manager', 'Collector'],
  transfers: ['Admin', 'Manager', 'Collector'],
  'activity-log': ['Admin'],
  'license-check': ROLES,
  'read-models': ['Admin'],
  backups: ['Admin'],
  books: ['Admin'],
};

const AREA_NAMES: Record<WriteArea, string> = {
  masters: 'masters',
  users: 'users',
  'custom-fields': 'custom fields',
  transactions: 'transactions',
  payments: 'payments and receipts',
  transfers: 'collector transfers',
  'activity-log': 'the activity log',
  'license-check': 'the license check',
  'read-models': 'the read models',
  backups: 'the backups',
  books: 'the period close',
};

export function mayWrite(role: Role, area: WriteArea): boolean {
  return WRITERS[area].includes(role);
}

export function forbiddenMessage(role: Role, area: WriteArea): string {
  return `Your role (${role}) cannot change ${AREA_NAMES[area]}.`;
}

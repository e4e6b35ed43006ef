import type { Role } from '@bahi/contracts';

/**
 * Who may write what (ACCOUNTING.md section 6). Admin: everything. Manager: everything
 * but users, the activity log and the license. Collector: reads, plus payments, receipts
 * and collector transfers. Viewer: reads only. The UI hides buttons; this decides.
 */
export type WriteArea =
  | 'masters'
  | 'users'
  | 'custom-fields'
  | 'transactions'
  | 'payments'
  | 'transfers'
  | 'activity-log'
  | 'license'
  | 'read-models';

const WRITERS: Record<WriteArea, readonly Role[]> = {
  masters: ['Admin', 'Manager'],
  users: ['Admin'],
  'custom-fields': ['Admin', 'Manager'],
  transactions: ['Admin', 'Manager'],
  payments: ['Admin', 'Manager', 'Collector'],
  transfers: ['Admin', 'Manager', 'Collector'],
  'activity-log': ['Admin'],
  license: ['Admin'],
  'read-models': ['Admin'],
};

const AREA_NAMES: Record<WriteArea, string> = {
  masters: 'masters',
  users: 'users',
  'custom-fields': 'custom fields',
  transactions: 'transactions',
  payments: 'payments and receipts',
  transfers: 'collector transfers',
  'activity-log': 'the activity log',
  license: 'the license',
  'read-models': 'the read models',
};

export function mayWrite(role: Role, area: WriteArea): boolean {
  return WRITERS[area].includes(role);
}

export function forbiddenMessage(role: Role, area: WriteArea): string {
  return `Your role (${role}) cannot change ${AREA_NAMES[area]}.`;
}

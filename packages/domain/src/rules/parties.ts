import { INR } from '../accounting/postings.ts';
import { conflict, invalid } from '../errors.ts';

/**
 * A party named on a record must be of the record's city (ACCOUNTING.md: a city's records move
 * that city's currency). `chosen`: the city was chosen on the form (purchases); `same`: the city
 * is the entry's own (expenses, incomes, payments).
 */
export function requireOfCity(
  party: { city_id?: string | null } | undefined,
  cityId: string,
  label: string,
  path: string,
  wording: 'chosen' | 'same' = 'chosen',
): void {
  if (party?.city_id === cityId) return;
  const what = wording === 'chosen' ? 'the chosen city' : 'the same city';
  throw invalid(`${label} is not of ${what}.`, [{ msg: `${label} is not of ${what}`, path }]);
}

/** A godown holds INR cash: what it pays or receives is in INR at rate 1. */
export const GODOWN_CASH = { rate: '1.0000', currency: INR } as const;

/** A salary payment's expense category when none is given: 'Salary - <collector>'. */
export const salaryCategory = (collectorName: string): string => `Salary - ${collectorName}`;

/**
 * An Admin cannot lock themselves out: not deactivate their own account, take away their own
 * Admin role, or delete it (someone must always be able to manage users).
 */
export function refuseSelfLockout(
  actorId: string,
  targetId: string,
  change: { delete: true } | { is_active: boolean; role: string },
): void {
  if (actorId !== targetId) return;
  if ('delete' in change) throw conflict('You cannot delete your own account.');
  if (!change.is_active || change.role !== 'Admin')
    throw conflict('You cannot deactivate your own account or take away your own Admin role.');
}

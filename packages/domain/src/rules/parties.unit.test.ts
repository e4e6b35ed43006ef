import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { GODOWN_CASH, refuseSelfLockout, requireOfCity, salaryCategory } from './parties.ts';

const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return error as DomainError;
  }
  return undefined;
};

describe('the rules about parties', () => {
  it('a party must be of the record’s city, named on the field it concerns', () => {
    expect(refusal(() => requireOfCity({ city_id: 'c1' }, 'c1', 'Funder', 'funder_id'))).toBeUndefined();
    const chosen = refusal(() => requireOfCity({ city_id: 'c2' }, 'c1', 'Funder', 'funder_id'));
    expect(chosen).toBeInstanceOf(DomainError);
    expect(chosen?.message).toBe('Funder is not of the chosen city.');
    expect(chosen?.errors).toEqual([{ msg: 'Funder is not of the chosen city', path: 'funder_id' }]);
    const same = refusal(() =>
      requireOfCity(undefined, 'c1', 'The collector', 'paid_from_entity_id', 'same'),
    );
    expect(same?.message).toBe('The collector is not of the same city.');
  });

  it('a godown pays in INR at rate 1, and a salary is an expense of its collector by default', () => {
    expect(GODOWN_CASH).toEqual({ rate: '1.0000', currency: 'INR' });
    expect(salaryCategory('Imran')).toBe('Salary - Imran');
  });

  it('an Admin cannot delete, deactivate or demote themselves, and may do so to others', () => {
    expect(refusal(() => refuseSelfLockout('a', 'a', { delete: true }))?.message).toBe(
      'You cannot delete your own account.',
    );
    for (const change of [
      { is_active: false, role: 'Admin' },
      { is_active: true, role: 'Manager' },
    ])
      expect(refusal(() => refuseSelfLockout('a', 'a', change))?.kind).toBe('conflict');
    expect(refusal(() => refuseSelfLockout('a', 'a', { is_active: true, role: 'Admin' }))).toBeUndefined();
    expect(refusal(() => refuseSelfLockout('a', 'b', { delete: true }))).toBeUndefined();
    expect(refusal(() => refuseSelfLockout('a', 'b', { is_active: false, role: 'Viewer' }))).toBeUndefined();
  });
});

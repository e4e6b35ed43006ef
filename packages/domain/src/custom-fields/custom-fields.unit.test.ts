import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { type CustomFieldDefinition, checkCustomFields } from './custom-fields.ts';

const def = (
  id: string,
  type: CustomFieldDefinition['type'],
  extra: Partial<CustomFieldDefinition> = {},
): CustomFieldDefinition => ({
  id,
  name: `Field ${id}`,
  type,
  is_required: false,
  options: type === 'SELECT' ? ['A', 'B'] : null,
  entity_types: ['Purchase', 'Sale'],
  ...extra,
});
const defs = [
  def('t', 'TEXT', { is_required: true }),
  def('n', 'NUMBER'),
  def('d', 'DATE'),
  def('b', 'BOOLEAN'),
  def('s', 'SELECT'),
  def('r', 'TEXT', { entity_types: ['SaleReturn'] }),
];
const errors = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as DomainError).errors;
  }
  throw new Error('expected a refusal');
};

describe('custom field values', () => {
  it('keeps values of the right type, normalised, and leaves out empty optional ones', () => {
    expect(
      checkCustomFields(
        'Purchase',
        { t: ' lot 7 ', n: 12.5, d: '2026-11-05T00:00:00.000Z', b: 'false', s: 'B', r: '' },
        defs,
      ),
    ).toEqual({ t: 'lot 7', n: '12.5', d: '2026-11-05', b: false, s: 'B' });
  });

  it('requires what is required, refuses wrong types and options, and fields of other forms', () => {
    expect(
      errors(() =>
        checkCustomFields('Sale', { n: 'ten', d: '2026-02-30', b: 'maybe', s: 'C', r: 'x', zz: 'y' }, defs),
      ),
    ).toEqual([
      { msg: 'This custom field does not apply to sales', path: 'custom_fields.r' },
      { msg: 'This custom field does not apply to sales', path: 'custom_fields.zz' },
      { msg: 'Field t is required', path: 'custom_fields.t' },
      { msg: 'Field n must be a number', path: 'custom_fields.n' },
      { msg: 'Field d must be a date', path: 'custom_fields.d' },
      { msg: 'Field b must be yes or no', path: 'custom_fields.b' },
      { msg: 'Field s must be one of: A, B', path: 'custom_fields.s' },
    ]);
    expect(() => checkCustomFields('Sale', {}, defs)).toThrow(DomainError);
    expect(checkCustomFields('SaleReturn', { r: 'x' }, defs)).toEqual({ r: 'x' });
  });
});

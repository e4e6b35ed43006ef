import { describe, expect, it } from 'vitest';
import { amountInput, canonicalDecimal, rateInput } from './primitives.ts';

describe('decimal inputs', () => {
  it('spell each value one way at its scale', () => {
    expect(canonicalDecimal('0.3', 4)).toBe('0.3000');
    expect(canonicalDecimal('000012.50', 2)).toBe('12.50');
    expect(canonicalDecimal('-0.00', 2)).toBe('0.00');
    expect(canonicalDecimal('+7', 2)).toBe('7.00');
    expect(canonicalDecimal('.5', 2)).toBe('0.50');
    expect(canonicalDecimal('-3.10', 2)).toBe('-3.10');
  });

  it('accept numbers and numeric strings, and say what is wrong otherwise', () => {
    expect(amountInput('Amount').parse(12.5)).toBe('12.50');
    expect(rateInput('Rate').parse(' 1.23 ')).toBe('1.2300');
    expect(amountInput('Amount').parse('10.500')).toBe('10.50'); // trailing zeros are not extra places
    const problems = (value: unknown) =>
      amountInput('Amount')
        .safeParse(value)
        .error?.issues.map((i) => i.message);
    expect(problems('12.345')).toEqual(['Amount can have at most 2 decimal places']);
    expect(problems('1e5')).toEqual(['Amount must be a number']);
    expect(problems('  ')).toEqual(['Amount is required']); // an empty form field
    expect(problems(Number.NaN)).toEqual(['Amount must be a number']);
    expect(problems('12,5')).toEqual(['Amount must be a number']);
    expect(problems(true)).toEqual(['Amount must be a number']);
    expect(problems('1234567890123456')).toEqual(['Amount is too large']);
  });
});

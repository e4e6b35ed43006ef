import { describe, expect, it } from 'vitest';
import { formatAmount, formatCount, formatDecimalText, formatExact, formatQuantity } from './format.ts';

describe('printed figures', () => {
  it('groups the Indian way and rounds half away from zero, exactly', () => {
    expect(formatDecimalText('1234567.5', 2)).toBe('12,34,567.50');
    expect(formatDecimalText('-1234.565', 2)).toBe('-1,234.57');
    expect(formatDecimalText('-0.001', 2)).toBe('0.00');
    expect(formatDecimalText('5.', 2)).toBe('5.00');
    expect(formatDecimalText('999999999999999999.995', 2)).toBe('10,00,00,00,00,00,00,00,000.00');
    expect(formatDecimalText('1e3', 2)).toBeNull();
    expect(formatAmount('100')).toBe('100.00');
    expect(formatQuantity('2.00005')).toBe('2.0001');
    expect(formatCount('1234567')).toBe('12,34,567');
    expect(formatExact('1234.5')).toBe('1,234.5');
  });
});

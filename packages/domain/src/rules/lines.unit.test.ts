import { describe, expect, it } from 'vitest';
import { lineTotalText, remainingQuantityText } from './lines.ts';

describe('a line total and what remains', () => {
  it('rounds quantity times rate once, half away from zero, to two decimals', () => {
    expect(lineTotalText('3.3333', '1.5')).toBe('5.00'); // 4.99995 -> 5.00
    expect(lineTotalText('0.0001', '0.5')).toBe('0.00'); // 0.00005 -> 0.00
    expect(lineTotalText('0.001', '5')).toBe('0.01'); // 0.005 -> 0.01
    expect(lineTotalText('10', '1250.5')).toBe('12505.00');
    expect(lineTotalText('123456789.1234', '98765.4321')).toBe('12193263123451.18'); // as Postgres' round(q * r, 2);
  });

  it('keeps what remains at four decimals', () => {
    expect(remainingQuantityText('10', '2.5')).toBe('7.5000');
    expect(remainingQuantityText('1.2345', '1.2345')).toBe('0.0000');
  });
});

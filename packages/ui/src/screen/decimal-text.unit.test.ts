import { describe, expect, it } from 'vitest';
import { divideDecimal, multiplyDecimal, transferReceivedText } from './decimal-text.ts';

describe('exact decimal multiplication and division', () => {
  it('divides city rates to 4 decimals, half away from zero (spec section 5)', () => {
    expect(divideDecimal('22.6543', '0.3', 4)).toBe('75.5143'); // 75.514333…
    expect(divideDecimal('0.3', '22.6543', 4)).toBe('0.0132'); // 0.013242…
    expect(divideDecimal('1', '3', 4)).toBe('0.3333');
    expect(divideDecimal('2', '3', 4)).toBe('0.6667');
    expect(divideDecimal('22.5000', '22.5000', 4)).toBe('1.0000');
    // Exactly half rounds away from zero, either sign.
    expect(divideDecimal('0.00005', '1', 4)).toBe('0.0001');
    expect(divideDecimal('-0.00005', '1', 4)).toBe('-0.0001');
    expect(divideDecimal('0.000049', '1', 4)).toBe('0.0000');
    expect(divideDecimal('1', '-8', 2)).toBe('-0.13'); // -0.125
  });

  it('is exact where a JS number is not', () => {
    // 0.3 / 0.1 is 2.9999999999999996 as floats.
    expect(divideDecimal('0.3', '0.1', 4)).toBe('3.0000');
    // 1.005 x 1 is 1.00499999… as a float: exact text rounds it up.
    expect(multiplyDecimal('1.005', '1', 2)).toBe('1.01');
    expect(multiplyDecimal('999999999999999.99', '75.5143', 2)).toBe('75514299999999999.24');
  });

  it('multiplies to the asked scale', () => {
    expect(multiplyDecimal('1000.00', '75.5143', 2)).toBe('75514.30');
    expect(multiplyDecimal('950', '0.0132', 2)).toBe('12.54');
    expect(multiplyDecimal('0.05', '0.1', 2)).toBe('0.01'); // 0.005
    expect(multiplyDecimal('-0.05', '0.1', 2)).toBe('-0.01');
    expect(multiplyDecimal('12', '3', 0)).toBe('36');
    expect(multiplyDecimal('.5', '2.', 2)).toBe('1.00');
  });

  it('answers null for what is no number, and for division by zero', () => {
    expect(divideDecimal('1', '0.0000', 4)).toBeNull();
    expect(divideDecimal('', '1', 4)).toBeNull();
    expect(multiplyDecimal('1e3', '1', 2)).toBeNull();
    expect(multiplyDecimal('1.2.3', '1', 2)).toBeNull();
    expect(multiplyDecimal('.', '1', 2)).toBeNull();
  });

  it('gives a transfer’s amount received by the domain’s rule, as the server records it', () => {
    expect(transferReceivedText('1000.00', '10.00', '75.5143', '*')).toBe('74759.16'); // 990 x 75.5143 = 74759.157
    expect(transferReceivedText('1000', '', '3', '/')).toBe('333.33');
    expect(transferReceivedText('1000', '0', '0', '/')).toBeNull();
    expect(transferReceivedText('1e3', '0', '1', '*')).toBeNull();
  });
});

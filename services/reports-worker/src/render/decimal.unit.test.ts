import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDecimal, subtractDecimals, sumDecimals } from './decimal.ts';
import { escapeFormula } from './escape.ts';

describe('exact decimals for totals', () => {
  it('adds amounts without floating point error', () => {
    expect(sumDecimals(['0.10', '0.20'])).toBe('0.30');
    expect(sumDecimals(Array(10).fill('0.10'))).toBe('1.00');
    expect(sumDecimals(['99999999999999.99', '0.01'])).toBe('100000000000000.00');
    expect(sumDecimals([])).toBe('0.00');
    expect(subtractDecimals('10.00', '10.05')).toBe('-0.05');
  });

  it('sums as integers of cents would', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n })), (cents) => {
        const text = cents.map(
          (c) =>
            `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${((c < 0n ? -c : c) % 100n).toString().padStart(2, '0')}`,
        );
        const total = cents.reduce((a, b) => a + b, 0n);
        expect(BigInt(sumDecimals(text).replace('.', ''))).toBe(total);
      }),
    );
  });

  it('prints 2 decimals with Indian grouping, rounding half away from zero', () => {
    expect(formatDecimal('1234567.5', 2)).toBe('12,34,567.50');
    expect(formatDecimal('-1000', 2)).toBe('-1,000.00');
    expect(formatDecimal('0.005', 2)).toBe('0.01');
    expect(formatDecimal('-0.005', 2)).toBe('-0.01');
    expect(formatDecimal('999.994', 2)).toBe('999.99');
    expect(formatDecimal('12', 2, false)).toBe('12.00');
  });
});

describe('formula injection', () => {
  it('escapes text that a spreadsheet would run', () => {
    for (const bad of ['=1+1', '+91', '-2', '@SUM(A1)', '\tx', '\rx'])
      expect(escapeFormula(bad)).toBe(`'${bad}`);
    expect(escapeFormula('Ravi = Sons')).toBe('Ravi = Sons');
    expect(escapeFormula('')).toBe('');
  });
});

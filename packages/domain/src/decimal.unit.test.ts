import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  amount,
  compare,
  type Dec,
  DecimalFormatError,
  div,
  format,
  hasMoreDigitsThan,
  mul,
  parseDecimal,
  quantity,
  rate,
  round,
  sub,
  toFixedString,
} from './decimal.ts';

const s = (d: Dec) => toFixedString(d);

describe('exact decimals', () => {
  it('reads strings and JSON numbers digit for digit, never through binary floating point', () => {
    expect(s(amount('0.1'))).toBe('0.10');
    expect(s(add(amount(0.1), amount(0.2)))).toBe('0.30'); // 0.1 + 0.2 !== 0.3 in floating point
    expect(s(quantity('12.3456'))).toBe('12.3456');
    expect(s(parseDecimal('-.5'))).toBe('-0.5');
    expect(s(parseDecimal('1e3'))).toBe('1000');
    expect(s(parseDecimal(1.5e-7))).toBe('0.00000015');
    expect(s(parseDecimal('123456789012345678901234.5678'))).toBe('123456789012345678901234.5678');
  });

  it('refuses what is not a number', () => {
    for (const bad of ['', 'abc', '1,5', '1.2.3', '--1', 'NaN', 'Infinity', '0x10', ' . ']) {
      expect(() => parseDecimal(bad), bad).toThrow(DecimalFormatError);
    }
    expect(() => parseDecimal(Number.NaN)).toThrow(DecimalFormatError);
    expect(() => parseDecimal(Number.POSITIVE_INFINITY)).toThrow(DecimalFormatError);
  });

  it('rounds half away from zero at the scale', () => {
    expect(s(amount('2.345'))).toBe('2.35');
    expect(s(amount('-2.345'))).toBe('-2.35');
    expect(s(amount('2.344999'))).toBe('2.34');
    expect(s(amount('-0.005'))).toBe('-0.01');
    expect(s(amount('0.004'))).toBe('0.00');
    expect(s(rate('1.23455'))).toBe('1.2346');
  });

  it('multiplies exactly and rounds the product once', () => {
    // 3.3333 units at 3.0003 = 10.00089999 -> 10.00 (rounding each step would give another answer)
    expect(s(mul(quantity('3.3333'), rate('3.0003'), 2))).toBe('10.00');
    expect(s(mul(quantity('2.5'), rate('0.3'), 2))).toBe('0.75');
    expect(s(mul(amount('-10.01'), rate('0.5'), 2))).toBe('-5.01'); // -5.005 -> away from zero
  });

  it('divides with half-away-from-zero rounding', () => {
    expect(s(div(amount('10'), rate('3'), 4))).toBe('3.3333');
    expect(s(div(amount('2'), rate('3'), 4))).toBe('0.6667');
    expect(s(div(amount('-2'), rate('3'), 4))).toBe('-0.6667');
    expect(s(div(amount('1'), amount('8'), 2))).toBe('0.13'); // 0.125 -> 0.13
    expect(s(div(amount('-1'), amount('8'), 2))).toBe('-0.13');
    expect(s(div(rate('1.2'), rate('0.012'), 4))).toBe('100.0000');
    expect(() => div(amount('1'), amount('0'), 2)).toThrow(RangeError);
  });

  it('formats at a scale and compares across scales', () => {
    expect(format(parseDecimal('5'), 2)).toBe('5.00');
    expect(format(parseDecimal('-0.001'), 2)).toBe('0.00');
    expect(compare(amount('1.10'), quantity('1.1'))).toBe(0);
    expect(compare(amount('-1'), quantity('0.0001'))).toBe(-1);
    expect(hasMoreDigitsThan(parseDecimal('1.23'), 2)).toBe(false);
    expect(hasMoreDigitsThan(parseDecimal('1.2301'), 2)).toBe(true);
    expect(hasMoreDigitsThan(parseDecimal('1.2300'), 2)).toBe(false);
  });

  const decimals = fc
    .tuple(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.integer({ min: 0, max: 6 }))
    .map(([units, scale]): Dec => ({ units, scale }));

  it('round-trips through its text exactly', () => {
    fc.assert(fc.property(decimals, (d) => compare(parseDecimal(toFixedString(d)), d) === 0));
  });

  it('adds and subtracts exactly (associative, inverse)', () => {
    fc.assert(
      fc.property(decimals, decimals, decimals, (a, b, c) => {
        expect(compare(add(add(a, b), c), add(a, add(b, c)))).toBe(0);
        expect(compare(sub(add(a, b), b), a)).toBe(0);
      }),
    );
  });

  it('rounds to the nearest value, ties away from zero, never off by more than half a unit', () => {
    fc.assert(
      fc.property(decimals, fc.integer({ min: 0, max: 4 }), (d, scale) => {
        const r = round(d, scale);
        const diff = sub(d, r); // |diff| <= half a unit of the target scale
        const half = { units: 5n, scale: scale + 1 };
        expect(
          compare(diff.units < 0n ? { units: -diff.units, scale: diff.scale } : diff, half),
        ).toBeLessThanOrEqual(0);
        if (compare(diff, half) === 0) expect(d.units < 0n).toBe(true); // a positive tie rounds up
        if (compare(diff, { units: -5n, scale: scale + 1 }) === 0) expect(d.units > 0n).toBe(true);
      }),
    );
  });

  it('divides so that quotient x divisor is within half a unit of the dividend', () => {
    fc.assert(
      fc.property(decimals, decimals, (a, b) => {
        fc.pre(b.units !== 0n);
        const q = div(a, b, 4);
        // a/b - q is at most half a unit at scale 4: |a - q*b| <= |b| * 0.00005
        const err = sub(a, mul(q, b, a.scale + b.scale + 4));
        const bound = mul(
          { units: b.units < 0n ? -b.units : b.units, scale: b.scale },
          { units: 5n, scale: 5 },
          20,
        );
        const absErr = err.units < 0n ? { units: -err.units, scale: err.scale } : err;
        expect(compare(absErr, bound)).toBeLessThanOrEqual(0);
      }),
    );
  });
});

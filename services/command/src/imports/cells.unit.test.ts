import { describe, expect, it } from 'vitest';
import { numberText, readCell } from './cells.ts';

const number = (value: number) => readCell({ value } as never, 'amount', 'C2');

describe('a number cell read as exact decimal text', () => {
  it('keeps the shortest spelling of the double, never its binary expansion', () => {
    expect(number(0.1)).toEqual({ ok: true, text: '0.1' });
    expect(number(1234.56)).toEqual({ ok: true, text: '1234.56' });
    expect(number(-2000.02)).toEqual({ ok: true, text: '-2000.02' });
  });

  it('writes small numbers out in full by moving the point in the text', () => {
    expect(number(1e-7)).toEqual({ ok: true, text: '0.0000001' });
    expect(number(1.5e-7)).toEqual({ ok: true, text: '0.00000015' });
    expect(number(-2.5e-8)).toEqual({ ok: true, text: '-0.000000025' });
    expect(number(1.2345e-9)).toEqual({ ok: true, text: '0.0000000012345' });
  });

  it('refuses a number too large to be an amount, on its cell', () => {
    expect(number(1e21)).toEqual({
      ok: false,
      msg: 'Cell C2 holds a number too large to be a value here.',
    });
    expect(number(Number.POSITIVE_INFINITY).ok).toBe(false);
  });
});

describe('a number typed as text', () => {
  it('drops grouping and currency marks, the longer mark before its prefix', () => {
    expect(numberText('AFN 1,200.50')).toBe('1200.50');
    expect(numberText('1,200.50 afn')).toBe('1200.50');
    expect(numberText('AF 500')).toBe('500');
    expect(numberText('₹ 1,00,000')).toBe('100000');
    expect(numberText('Rs. 80.50')).toBe('80.50');
  });
});

import { describe, expect, it } from 'vitest';
import {
  amountInput,
  businessDate,
  canonicalDecimal,
  id,
  isUuid,
  optionalBusinessDate,
  optionalId,
  queryDate,
  rateInput,
  uuidText,
} from './primitives.ts';

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
    // Left out of the request, or null: the same words as the empty field.
    expect(problems(undefined)).toEqual(['Amount is required']);
    expect(problems(null)).toEqual(['Amount is required']);
    expect(problems(Number.NaN)).toEqual(['Amount must be a number']);
    expect(problems('12,5')).toEqual(['Amount must be a number']);
    expect(problems(true)).toEqual(['Amount must be a number']);
    expect(problems('1234567890123456')).toEqual(['Amount is too large']);
  });
});

describe('business dates', () => {
  const problems = (value: unknown) =>
    businessDate('Date')
      .safeParse(value)
      .error?.issues.map((i) => i.message);

  it('take YYYY-MM-DD or a full ISO timestamp, and keep the calendar date written', () => {
    expect(businessDate('Date').parse('2026-02-28')).toBe('2026-02-28');
    expect(businessDate('Date').parse(' 2026-02-28 ')).toBe('2026-02-28');
    expect(businessDate('Date').parse('2026-02-28T23:30:00.000Z')).toBe('2026-02-28');
    expect(businessDate('Date').parse('2026-02-28T10:30')).toBe('2026-02-28');
    expect(businessDate('Date').parse('2026-02-28T10:30:05+05:30')).toBe('2026-02-28');
    expect(businessDate('Date').parse('2000-01-01')).toBe('2000-01-01');
    expect(businessDate('Date').parse('2099-12-31')).toBe('2099-12-31');
  });

  it('refuse anything after the date, days that do not exist, and days outside 2000..2099', () => {
    for (const bad of [
      '2026-02-28Tgarbage',
      '2026-02-28T',
      '2026-02-28T25:00',
      '2026-02-28x',
      '2026-02-30',
      '28/02/2026',
    ])
      expect(problems(bad), bad).toEqual(['Date must be a date']);
    for (const out of ['0000-01-01', '1999-12-31', '2100-01-01', '9999-12-31'])
      expect(problems(out), out).toEqual(['Date must be between 2000-01-01 and 2099-12-31']);
    expect(optionalBusinessDate('Date').parse('')).toBeNull();
    expect(optionalBusinessDate('Date').parse(null)).toBeNull();
    expect(optionalBusinessDate('Date').safeParse('0000-01-01').error?.issues[0]?.message).toBe(
      'Date must be between 2000-01-01 and 2099-12-31',
    );
  });

  it('for reads, parse as strictly but take any year from 1 to 9999', () => {
    expect(queryDate('asOf').parse('1990-01-01')).toBe('1990-01-01');
    expect(queryDate('asOf').safeParse('0000-01-01').success).toBe(false);
    expect(queryDate('asOf').safeParse('2026-01-01junk').success).toBe(false);
  });
});

describe('ids (issue #27)', () => {
  const lower = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  const upper = lower.toUpperCase();

  it('take a UUID in either case and answer it in lower case, as ids are stored and compared', () => {
    expect(id('City').parse(upper)).toBe(lower);
    expect(id('City').parse(lower)).toBe(lower);
    expect(optionalId('Agent').parse(upper)).toBe(lower);
    expect(optionalId('Agent').parse('')).toBeNull();
    expect(uuidText('city_id must be an id').parse('3F2504E0-4f89-41D3-9a0c-0305E82C3301')).toBe(lower);
    expect(isUuid(upper) && isUuid(lower)).toBe(true);
  });

  it('ask for the thing in words when nothing is chosen (issue #25)', () => {
    for (const value of ['', undefined, null]) {
      expect(
        id('Funder')
          .safeParse(value)
          .error?.issues.map((i) => i.message),
      ).toEqual(['Choose a funder']);
    }
    expect(id('Agent').safeParse('').error?.issues[0]?.message).toBe('Choose an agent');
    expect(id('From godown', 'a godown to sell from').safeParse('x').error?.issues[0]?.message).toBe(
      'Choose a godown to sell from that exists',
    );
    expect(optionalId('Collector').safeParse('x').error?.issues[0]?.message).toBe(
      'Choose a collector that exists',
    );
  });

  it("refuse what is no UUID with the field's message, wherever it comes from", () => {
    for (const value of ['3f2504e0', `${lower}x`, ` ${lower}`, '3f2504e0-4f89-01d3-0a0c-0305e82c3301', 7]) {
      expect(
        id('City')
          .safeParse(value)
          .error?.issues.map((i) => i.message),
      ).toEqual(['Choose a city that exists']);
      expect(typeof value === 'string' && isUuid(value)).toBe(false);
    }
  });
});

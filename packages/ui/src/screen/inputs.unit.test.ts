import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api-client.ts';
import {
  dateProblem,
  isoDay,
  momentProblem,
  parseDay,
  parseMoment,
  showDay,
  showMoment,
  timeZoneLabel,
  today,
} from './date-text.ts';
import {
  acceptDecimal,
  addDecimal,
  cleanDecimal,
  compareDecimal,
  isPositiveDecimal,
  multiplyDecimal,
  subtractDecimal,
} from './decimal-text.ts';
import { COALESCE_MS, keysConcerned, startLiveInvalidation } from './live-invalidation.ts';
import { fieldPaths, splitServerErrors } from './server-errors.ts';

describe('decimal text', () => {
  it('takes only what can be an exact decimal at the field’s scale', () => {
    expect(acceptDecimal('12.34', 2)).toBe(true);
    expect(acceptDecimal('12.345', 2)).toBe(false);
    expect(acceptDecimal('12.3456', 4)).toBe(true);
    expect(acceptDecimal('1e5', 2)).toBe(false);
    expect(acceptDecimal('-5', 2)).toBe(false);
    expect(acceptDecimal('-5', 2, true)).toBe(true);
    expect(acceptDecimal('', 2)).toBe(true);
    expect(acceptDecimal('.', 2)).toBe(true);
    expect(acceptDecimal('1234567890123456', 2)).toBe(false);
    expect(cleanDecimal('1,23,456.50')).toBe('123456.50');
  });

  it('adds, subtracts and compares without binary floating point', () => {
    // 0.1 + 0.2 is 0.30000000000000004 in a JS number.
    expect(addDecimal('0.10', '0.20', 2)).toBe('0.30');
    expect(subtractDecimal('3000.00', '1000.01', 2)).toBe('1999.99');
    expect(subtractDecimal('10', '25.5', 2)).toBe('-15.50');
    expect(addDecimal('-1000.00', '250.00', 2)).toBe('-750.00');
    expect(addDecimal('999999999999999.99', '0.01', 2)).toBe('1000000000000000.00');
    expect(compareDecimal('10.5', '10.50')).toBe(0);
    expect(compareDecimal('9.99', '10')).toBe(-1);
    expect(compareDecimal('-1', '0')).toBe(-1);
    expect(isPositiveDecimal('0.01')).toBe(true);
    expect(isPositiveDecimal('0.00')).toBe(false);
    expect(isPositiveDecimal('')).toBe(false);
    expect(isPositiveDecimal('-3')).toBe(false);
    // 1.005 x 1 at 2 places: half away from zero gives 1.01 (a JS number gives 1.00).
    expect(multiplyDecimal('1.005', '1', 2)).toBe('1.01');
    expect(multiplyDecimal('12.5000', '3.3333', 2)).toBe('41.67');
    expect(multiplyDecimal('-2.5', '3', 2)).toBe('-7.50');
    expect(multiplyDecimal('0.3', '0.1', 4)).toBe('0.0300');
  });
});

describe('date text', () => {
  it('reads the ways staff type a date, and refuses days that do not exist', () => {
    expect(parseDay('24 Nov 2026')).toBe('2026-11-24');
    expect(parseDay('24 november 26')).toBe('2026-11-24');
    expect(parseDay('24/11/2026')).toBe('2026-11-24');
    expect(parseDay('5-1-2026')).toBe('2026-01-05');
    expect(parseDay('2026-11-24')).toBe('2026-11-24');
    expect(parseDay('2026-11-24T10:00:00.000Z')).toBe('2026-11-24');
    expect(parseDay('30/02/2026')).toBeNull();
    expect(parseDay('tomorrow')).toBeNull();
    expect(parseDay('')).toBeNull();
  });

  it('shows the app’s format and sends a full ISO timestamp of the day', () => {
    expect(showDay('2026-01-05')).toBe('5 Jan 2026');
    expect(showDay('')).toBe('');
    expect(isoDay('2026-01-05')).toBe('2026-01-05T00:00:00.000Z');
    expect(today(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('date problems, in words for the field', () => {
  it('says why a typed text is no date, and nothing for a date or an empty box', () => {
    expect(dateProblem('31/02/2026')).toBe('31/02/2026 is not a date: Feb 2026 has 28 days.');
    expect(dateProblem('29 Feb 2028')).toBeNull();
    expect(dateProblem('31 Apr 2026')).toBe('31 Apr 2026 is not a date: Apr 2026 has 30 days.');
    expect(dateProblem('13/13/2026')).toBe(
      '13/13/2026 is not a date: type it as 25/11/2026, 25 Nov 2026 or 2026-11-25.',
    );
    expect(dateProblem(' tomorrow ')).toBe(
      'tomorrow is not a date: type it as 25/11/2026, 25 Nov 2026 or 2026-11-25.',
    );
    expect(dateProblem('25 Nov 2026')).toBeNull();
    expect(dateProblem('')).toBeNull();
  });
});

describe('moments, typed and shown in the zone the app shows moments in', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Asia/Kolkata';
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('reads a day in any of the app’s forms and a 24-hour time, local to the zone', () => {
    expect(parseMoment('25 Nov 2026 14:30')).toBe('2026-11-25T09:00:00.000Z');
    expect(parseMoment('25/11/2026 14:30:05')).toBe('2026-11-25T09:00:05.000Z');
    expect(parseMoment('2026-11-25 00:00')).toBe('2026-11-24T18:30:00.000Z');
    expect(parseMoment('25 Nov 2026, 9:05')).toBe('2026-11-25T03:35:00.000Z');
    // A moment that names its zone (a link, the API's) is that instant.
    expect(parseMoment('2026-11-25T09:00:05.123Z')).toBe('2026-11-25T09:00:05.123Z');
    expect(parseMoment('')).toBeNull();
  });

  it('shows an instant as the app writes it: day first, 24-hour, seconds only when set', () => {
    expect(showMoment('2026-11-25T09:00:00.000Z')).toBe('25 Nov 2026 14:30');
    expect(showMoment('2026-11-25T09:00:05.999Z')).toBe('25 Nov 2026 14:30:05');
    expect(showMoment('')).toBe('');
    expect(parseMoment(showMoment('2026-11-25T09:00:05.000Z'))).toBe('2026-11-25T09:00:05.000Z');
    // ICU may name the zone by its older alias.
    expect(timeZoneLabel(new Date('2026-11-25T09:00:00Z'))).toMatch(
      /^Asia\/(Kolkata|Calcutta) \(UTC\+05:30\)$/,
    );
  });

  it('says what is wrong with a moment', () => {
    expect(momentProblem('25 Nov 2026')).toBe(
      '25 Nov 2026 has no time: add it, 24-hour, as in 25 Nov 2026 14:30.',
    );
    expect(momentProblem('31/02/2026 10:00')).toBe('31/02/2026 is not a date: Feb 2026 has 28 days.');
    expect(momentProblem('25 Nov 2026 24:10')).toBe(
      '24:10 is not a time: use 24-hour HH:mm or HH:mm:ss, as in 14:30.',
    );
    expect(momentProblem('11/25/2026 2:30 PM')).toBe(
      '11/25/2026 2:30 PM is not a moment: type a date and a 24-hour time, as in 25 Nov 2026 14:30.',
    );
    expect(momentProblem('25 Nov 2026 14:30')).toBeNull();
  });
});

describe('server errors on their fields', () => {
  const known = fieldPaths({ amount: '', collector_id: '', common: { godown_id: '' } });

  it('lists every field path of a form', () => {
    expect(known).toEqual(['amount', 'collector_id', 'common', 'common.godown_id']);
  });

  it('puts each error on its field and leaves the alert empty when all found one', () => {
    const e = new ApiError(400, {
      message: 'The request is not valid.',
      errors: [
        { msg: 'Password must be at least 6 characters', path: 'amount' },
        { msg: 'Choose a godown', path: 'common.godown_id' },
      ],
    });
    expect(splitServerErrors(e, known, 'An unexpected error occurred.')).toEqual({
      fields: { amount: 'Password must be at least 6 characters', 'common.godown_id': 'Choose a godown' },
      alert: null,
    });
  });

  it('sends what has no field to the alert, and a refusal without paths too', () => {
    const e = new ApiError(400, {
      message: 'The request is not valid.',
      errors: [
        { msg: 'Amount is too large', path: 'amount' },
        { msg: 'Unknown thing', path: 'nope' },
      ],
    });
    expect(splitServerErrors(e, known, 'x')).toEqual({
      fields: { amount: 'Amount is too large' },
      alert: 'Unknown thing',
    });
    const conflict = new ApiError(409, {
      message: 'Cumin cannot be deleted: 2 purchases still refer to it.',
    });
    expect(splitServerErrors(conflict, known, 'x').alert).toBe(
      'Cumin cannot be deleted: 2 purchases still refer to it.',
    );
    expect(
      splitServerErrors(new ApiError(500, undefined), known, 'An unexpected error occurred.').alert,
    ).toBe('An unexpected error occurred.');
    expect(
      splitServerErrors(new TypeError('Failed to fetch'), known, 'An unexpected error occurred.').alert,
    ).toBe('An unexpected error occurred.');
  });

  it('maps a server path onto another field where the form names it differently', () => {
    const e = new ApiError(400, {
      errors: [{ msg: 'In INR mode a godown pays', path: 'paid_from_entity_type' }],
    });
    expect(
      splitServerErrors(e, ['paid_from_entity_id'], 'x', { paid_from_entity_type: 'paid_from_entity_id' })
        .fields,
    ).toEqual({ paid_from_entity_id: 'In INR mode a godown pays' });
  });
});

describe('live invalidation', () => {
  it('maps each stream to the lists it concerns', () => {
    expect(keysConcerned('city')).toBe('all');
    expect(keysConcerned('funder')).toContainEqual(['masters']);
    expect(keysConcerned('user')).toEqual([
      ['settings', 'users'],
      ['settings', 'activity-log'],
    ]);
    expect(keysConcerned('notification')).toEqual([]);
    expect(keysConcerned('report')).toEqual([['settings', 'whatsapp-outbox']]);
    expect(keysConcerned('payment')).toContainEqual(['reports']);
  });

  it('refreshes what a burst of events concerns once, after they settle', async () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries');
    const target = new EventTarget();
    const stop = startLiveInvalidation(client, target);
    for (const stream of ['payment', 'payment', 'user'])
      target.dispatchEvent(new CustomEvent('bahi:data-changed', { detail: { stream } }));
    expect(spy).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(COALESCE_MS);
    const keys = spy.mock.calls.map((c) => JSON.stringify(c[0]?.queryKey));
    expect(keys).toContain('["masters"]');
    expect(keys).toContain('["settings","users"]');
    expect(new Set(keys).size).toBe(keys.length); // each once
    stop();
    vi.useRealTimers();
  });

  it('refetches every query on a resync (the stream missed events), and stops listening when stopped', async () => {
    const client = new QueryClient();
    const spy = vi.spyOn(client, 'invalidateQueries');
    const target = new EventTarget();
    const stop = startLiveInvalidation(client, target);
    target.dispatchEvent(new CustomEvent('bahi:resync'));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[0]).toBeUndefined(); // no key: every query
    stop();
    target.dispatchEvent(new CustomEvent('bahi:resync'));
    expect(spy).toHaveBeenCalledTimes(1);
  });
});

import { describe, expect, it } from 'vitest';
import { licenseNotice, nameUuid } from './license-watch.ts';

const NOW = new Date('2026-11-21T12:00:00Z');
const config = (expires_at: string | null, extra = {}) => ({
  status: 'Active' as const,
  type: 'Standard',
  expires_at,
  grace_period_days: 7,
  expiry_notification_days: 15,
  ...extra,
});

describe('license notices', () => {
  it('warns within the notice period, with the days left', () => {
    expect(
      licenseNotice({ isValid: true, reason: null, config: config('2026-11-26T12:00:00Z') }, NOW),
    ).toEqual({
      type: 'warning',
      title: 'License expiring',
      message: 'Your application license will expire in 5 day(s). Please contact support for renewal.',
    });
  });

  it('says nothing while far from expiry, or for a Perpetual license', () => {
    expect(
      licenseNotice({ isValid: true, reason: null, config: config('2027-01-01T00:00:00Z') }, NOW),
    ).toBeUndefined();
    expect(
      licenseNotice({ isValid: true, reason: null, config: config(null, { type: 'Perpetual' }) }, NOW),
    ).toBeUndefined();
  });

  it('raises an error when expired (in grace) or not valid', () => {
    const grace = licenseNotice(
      { isValid: true, reason: 'in grace', config: config('2026-11-20T00:00:00Z', { status: 'Expired' }) },
      NOW,
    );
    expect(grace).toMatchObject({ type: 'error', title: 'License expired', message: 'in grace' });
    expect(licenseNotice({ isValid: false, reason: 'gone', config: null }, NOW)).toMatchObject({
      type: 'error',
      message: 'gone',
    });
  });

  it('names a notice with the same uuid every time', () => {
    const a = nameUuid('license:License expiring:2026-11-21');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameUuid('license:License expiring:2026-11-21')).toBe(a);
    expect(nameUuid('license:License expiring:2026-11-22')).not.toBe(a);
  });
});

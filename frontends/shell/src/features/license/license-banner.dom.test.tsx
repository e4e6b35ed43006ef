import type { LicenseInfo } from '@bahi/ui';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeSession, renderAt } from '../../testing/render.tsx';
import { licenseBanner } from './banner-state.ts';
import { LicenseBanner } from './license-banner.tsx';

afterEach(cleanup);
beforeEach(() => sessionStorage.clear());

const NOW = new Date('2026-11-21T12:00:00.000Z');
const license = (config: Partial<NonNullable<LicenseInfo['config']>>, isValid = true): LicenseInfo => ({
  isValid,
  reason: null,
  config: {
    status: 'Active',
    type: 'Standard',
    expires_at: '2027-06-01T00:00:00.000Z',
    grace_period_days: 7,
    expiry_notification_days: 15,
    ...config,
  },
});
const show = (info: LicenseInfo) =>
  renderAt('/', <LicenseBanner now={NOW} />, fakeSession({ license: info }));

describe('license banner', () => {
  it('Expired within the grace period: an error naming the grace end (expiry + grace days)', () => {
    show(license({ status: 'Expired', expires_at: '2026-11-18T00:00:00.000Z', grace_period_days: 7 }));
    const banner = screen.getByTestId('license-banner');
    expect(banner.textContent).toContain(
      'License Expired: The license has expired and the system will not work after the grace period ends on 25 Nov 2026.',
    );
    expect(
      licenseBanner(license({ status: 'Expired', expires_at: '2026-11-18T00:00:00.000Z' }), NOW)?.intent,
    ).toBe('error');
  });

  it('Active and expiring within expiry_notification_days: a warning with the days left', () => {
    show(license({ expires_at: '2026-11-26T12:00:00.000Z' }));
    expect(screen.getByTestId('license-banner').textContent).toContain(
      'License Warning: Your application license will expire in 5 day(s). Please contact support for renewal.',
    );
  });

  it('no banner: far from expiry, Perpetual, or on the last boundary day counts', () => {
    expect(licenseBanner(license({ expires_at: '2027-06-01T00:00:00.000Z' }), NOW)).toBeNull();
    expect(
      licenseBanner(license({ type: 'Perpetual', expires_at: '2026-11-25T00:00:00.000Z' }), NOW),
    ).toBeNull();
    expect(licenseBanner(license({ expires_at: '2026-12-06T12:00:00.000Z' }), NOW)?.text).toContain(
      '15 day(s)',
    );
    expect(licenseBanner(license({ expires_at: '2026-12-07T12:00:00.000Z' }), NOW)).toBeNull();
    show(license({}));
    expect(screen.queryByTestId('license-banner')).toBeNull();
  });

  it('can be dismissed for the session', async () => {
    show(license({ expires_at: '2026-11-26T12:00:00.000Z' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('license-banner')).toBeNull();
    cleanup();
    show(license({ expires_at: '2026-11-26T12:00:00.000Z' }));
    expect(screen.queryByTestId('license-banner')).toBeNull();
  });
});

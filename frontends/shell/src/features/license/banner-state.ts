import { formatDate, type LicenseInfo } from '@bahi/ui';

const DAY = 86_400_000;

export interface Banner {
  intent: 'error' | 'warning';
  text: string;
}

/**
 * The license banner (spec sections 4 and 8): Expired but still within its grace period, an
 * error naming the grace end; Active, not Perpetual, expiring in 1..expiry_notification_days
 * days, a warning. Otherwise none.
 */
export function licenseBanner(license: LicenseInfo | null, now: Date = new Date()): Banner | null {
  const config = license?.config;
  if (!license?.isValid || !config) return null;
  if (config.status === 'Expired') {
    if (!config.expires_at) return null;
    const graceEnd = Date.parse(config.expires_at) + config.grace_period_days * DAY;
    return {
      intent: 'error',
      text: `License Expired: The license has expired and the system will not work after the grace period ends on ${formatDate(graceEnd)}.`,
    };
  }
  if (config.type === 'Perpetual' || !config.expires_at) return null;
  const days = Math.ceil((Date.parse(config.expires_at) - now.getTime()) / DAY);
  if (days > 0 && days <= config.expiry_notification_days) {
    return {
      intent: 'warning',
      text: `License Warning: Your application license will expire in ${days} day(s). Please contact support for renewal.`,
    };
  }
  return null;
}

import { createHash } from 'node:crypto';
import type { EventStore } from '@bahi/event-store';
import { appendToLog, type LicenseInfo, type LicenseService } from '@bahi/server-kit';

const DAY = 86_400_000;

/** A uuid derived from a name: the same notice on the same day is the same event, stored once. */
export function nameUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The notice a license deserves today, if any (spec section 8's banner texts). */
export function licenseNotice(info: LicenseInfo, now: Date) {
  const c = info.config;
  if (!info.isValid) {
    return {
      type: 'error' as const,
      title: 'License not valid',
      message: info.reason ?? 'The license is not valid.',
    };
  }
  if (!c?.expires_at || c.type === 'Perpetual') return undefined;
  if (c.status === 'Expired') {
    return {
      type: 'error' as const,
      title: 'License expired',
      message: info.reason ?? 'The license has expired.',
    };
  }
  const days = Math.ceil((Date.parse(c.expires_at) - now.getTime()) / DAY);
  if (days > 0 && days <= c.expiry_notification_days) {
    return {
      type: 'warning' as const,
      title: 'License expiring',
      message: `Your application license will expire in ${days} day(s). Please contact support for renewal.`,
    };
  }
  return undefined;
}

/**
 * Raises a license notice for Admins when the license needs attention: checked at start and
 * every hour, at most one notice of a kind per day (its event id is derived from the kind and
 * the day, and the store keeps an event id once).
 */
export function watchLicense(
  deps: { eventStore: EventStore; license: LicenseService },
  options: { now?: () => Date; everyMs?: number } = {},
) {
  const now = options.now ?? (() => new Date());
  const check = async () => {
    const notice = licenseNotice(deps.license.current(), now());
    if (!notice) return;
    const id = nameUuid(`license:${notice.title}:${now().toISOString().slice(0, 10)}`);
    await appendToLog(
      deps.eventStore,
      'notifications-license',
      [
        {
          id,
          type: 'NotificationRaised',
          data: { id, audience: 'Admin', ...notice, link: '/profile' },
          metadata: { userId: null, correlationId: 'license-watch', causationId: null },
        },
      ],
      'any',
    );
  };
  const timer = setInterval(() => void check().catch(() => {}), options.everyMs ?? 3_600_000);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}

/**
 * Business dates in forms: kept as 'YYYY-MM-DD' (the calendar day), shown in the app's format
 * ('24 Nov 2026', as everywhere else), sent as a full ISO timestamp (spec section 7).
 */
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const pad = (n: number) => String(n).padStart(2, '0');

/** Today's calendar day where the user is. */
export function today(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function valid(y: number, m: number, d: number): string | null {
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31) return null;
  if (d > daysIn(y, m)) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const year = (text: string) => (text.length === 2 ? 2000 + Number(text) : Number(text));

/** The year, month and day a text names, before asking whether that day exists. */
function dayParts(t: string): { y: number; m: number; d: number } | null {
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:t.*)?$/.exec(t);
  if (m) return { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
  m = /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d{2}|\d{4})$/.exec(t);
  if (m) return { y: year(m[3]!), m: Number(m[2]), d: Number(m[1]) };
  m = /^(\d{1,2})[ -]?([a-z]{3})[a-z]*[ -]?(\d{2}|\d{4})$/.exec(t);
  if (m) return { y: year(m[3]!), m: MONTHS.indexOf(m[2]!) + 1, d: Number(m[1]) };
  return null;
}

const normal = (text: string) => text.trim().toLowerCase().replace(/,/g, ' ').replace(/\s+/g, ' ');

/**
 * What a person typed, as a day: '24 Nov 2026', '24/11/2026', '24-11-2026', '24.11.2026',
 * '2026-11-24'; a two-digit year is this century's. Null when it is no date.
 */
export function parseDay(text: string): string | null {
  const parts = dayParts(normal(text));
  return parts ? valid(parts.y, parts.m, parts.d) : null;
}

/** The typed forms a date input takes, for its messages and hints. */
export const DAY_FORMS = '25/11/2026, 25 Nov 2026 or 2026-11-25';

/**
 * Why a typed text is no date, in words for the field ('31/02/2026 is not a date: Feb 2026 has
 * 28 days.'); null when it is a date or empty.
 */
export function dateProblem(text: string): string | null {
  const t = text.trim();
  if (!t || parseDay(t)) return null;
  const p = dayParts(normal(t));
  if (p && p.m >= 1 && p.m <= 12 && p.y >= 1000 && p.y <= 9999 && p.d > daysIn(p.y, p.m)) {
    return `${t} is not a date: ${monthName(p.m)} ${p.y} has ${daysIn(p.y, p.m)} days.`;
  }
  return `${t} is not a date: type it as ${DAY_FORMS}.`;
}

function monthName(m: number): string {
  const name = MONTHS[m - 1] ?? '';
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** '2026-11-24' as the app shows dates: '24 Nov 2026'. */
export function showDay(day: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day ?? '');
  if (!m) return '';
  return `${Number(m[3])} ${monthName(Number(m[2]))} ${m[1]}`;
}

/** The day as the API is sent it: a full ISO timestamp at the start of that calendar day. */
export const isoDay = (day: string): string => `${day.slice(0, 10)}T00:00:00.000Z`;

/*
 * Moments (time travel's 'As known at'): a day as above and a 24-hour time, in the time zone the
 * app shows every moment in (the browser's, as Recent Activity and the activity log do); the
 * value is the ISO instant in UTC, as the API takes `knownAt`.
 */

/** A moment with its zone ('2026-11-25T14:30:05.123Z', '...+05:30'), as a link or the API has it. */
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}t\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:z|[+-]\d{2}:?\d{2})$/;
const TIMED = /^(.*?)[ t]+(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

type MomentReading = { iso: string } | { problem: string };

function readMoment(text: string): MomentReading | null {
  const t = normal(text);
  if (!t) return null;
  if (ISO_MOMENT.test(t)) {
    const d = new Date(text.trim());
    if (!Number.isNaN(d.getTime())) return { iso: d.toISOString() };
  }
  const shown = text.trim();
  const m = TIMED.exec(t);
  if (!m) {
    const day = parseDay(t);
    return day
      ? { problem: `${shown} has no time: add it, 24-hour, as in ${showDay(day)} 14:30.` }
      : { problem: `${shown} is not a moment: type a date and a 24-hour time, as in 25 Nov 2026 14:30.` };
  }
  const day = parseDay(m[1]!);
  if (!day) return { problem: dateProblem(m[1]!) ?? `${shown} is not a moment.` };
  const [h, min, s] = [Number(m[2]), Number(m[3]), Number(m[4] ?? '0')];
  if (h > 23 || min > 59 || s > 59) {
    const time = `${m[2]}:${m[3]}${m[4] ? `:${m[4]}` : ''}`;
    return { problem: `${time} is not a time: use 24-hour HH:mm or HH:mm:ss, as in 14:30.` };
  }
  const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
  const at = new Date(y, mo - 1, d, h, min, s);
  // A clock time skipped by a daylight-saving change names no moment.
  if (at.getHours() !== h || at.getMinutes() !== min) {
    return { problem: `${shown} does not exist in ${timeZoneLabel(at)}.` };
  }
  return { iso: at.toISOString() };
}

/** A typed moment as an ISO instant; null when it is none (or empty). */
export function parseMoment(text: string): string | null {
  const r = readMoment(text);
  return r && 'iso' in r ? r.iso : null;
}

/** Why a typed text is no moment, in words for the field; null when it is one or empty. */
export function momentProblem(text: string): string | null {
  const r = readMoment(text);
  return r && 'problem' in r ? r.problem : null;
}

/** An ISO instant as the app shows moments: '25 Nov 2026 14:30' (seconds when not :00). */
export function showMoment(iso: string | null | undefined): string {
  const at = new Date(iso ?? '');
  if (!iso || Number.isNaN(at.getTime())) return '';
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  return `${showDay(today(at))} ${at.getSeconds() ? `${time}:${pad(at.getSeconds())}` : time}`;
}

/** The zone moments are shown and typed in: 'Asia/Kolkata (UTC+05:30)', or 'UTC'. */
export function timeZoneLabel(at: Date = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offset = -at.getTimezoneOffset();
  if (offset === 0 && /^(Etc\/)?(UTC|GMT|Universal|Zulu)$/i.test(zone ?? 'UTC')) return 'UTC';
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${zone} (UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)})`;
}

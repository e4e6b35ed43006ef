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
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/**
 * What a person typed, as a day: '24 Nov 2026', '24/11/2026', '24-11-2026', '24.11.2026',
 * '2026-11-24'; a two-digit year is this century's. Null when it is no date.
 */
export function parseDay(text: string): string | null {
  const t = text.trim().toLowerCase().replace(/,/g, ' ').replace(/\s+/g, ' ');
  if (!t) return null;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:t.*)?$/.exec(t);
  if (m) return valid(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.\- ](\d{1,2})[/.\- ](\d{2}|\d{4})$/.exec(t);
  if (m) {
    const y = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return valid(y, Number(m[2]), Number(m[1]));
  }
  m = /^(\d{1,2})[ -]?([a-z]{3})[a-z]*[ -]?(\d{2}|\d{4})$/.exec(t);
  if (m) {
    const month = MONTHS.indexOf(m[2]!) + 1;
    const y = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return month ? valid(y, month, Number(m[1])) : null;
  }
  return null;
}

/** '2026-11-24' as the app shows dates: '24 Nov 2026'. */
export function showDay(day: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day ?? '');
  if (!m) return '';
  const name = MONTHS[Number(m[2]) - 1] ?? '';
  return `${Number(m[3])} ${name.charAt(0).toUpperCase()}${name.slice(1)} ${m[1]}`;
}

/** The day as the API is sent it: a full ISO timestamp at the start of that calendar day. */
export const isoDay = (day: string): string => `${day.slice(0, 10)}T00:00:00.000Z`;

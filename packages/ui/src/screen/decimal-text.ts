/**
 * Exact decimal text as a person types it: digits, one point, at most `scale` decimals, and a
 * leading minus only where the field allows one. Nothing here goes through a JS number; the
 * value stays text from the keyboard to the request (the server checks it again).
 */
export function acceptDecimal(text: string, scale: number, allowNegative = false): boolean {
  const sign = allowNegative ? '-?' : '';
  const frac = scale > 0 ? `(\\.\\d{0,${scale}})?` : '';
  return new RegExp(`^${sign}\\d{0,15}${frac}$`).test(text);
}

/** Typed text made acceptable where it can be: commas and spaces (pasted '1,23,456.50') dropped. */
export function cleanDecimal(text: string): string {
  return text.replace(/[\s,\u00a0]/g, '');
}

/** Compares two non-negative decimal texts exactly: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): number {
  const norm = (s: string) => {
    const neg = s.trim().startsWith('-');
    const [i = '', f = ''] = s.trim().replace(/^[+-]/, '').split('.');
    return { neg, i: i.replace(/^0+/, ''), f: f.replace(/0+$/, '') };
  };
  const x = norm(a || '0');
  const y = norm(b || '0');
  const zero = (v: { i: string; f: string }) => !v.i && !/[1-9]/.test(v.f);
  const sx = zero(x) ? 0 : x.neg ? -1 : 1;
  const sy = zero(y) ? 0 : y.neg ? -1 : 1;
  if (sx !== sy) return sx < sy ? -1 : 1;
  if (sx === 0) return 0;
  let mag = 0;
  if (x.i.length !== y.i.length) mag = x.i.length < y.i.length ? -1 : 1;
  else if (x.i !== y.i) mag = x.i < y.i ? -1 : 1;
  else {
    const n = Math.max(x.f.length, y.f.length);
    const fx = x.f.padEnd(n, '0');
    const fy = y.f.padEnd(n, '0');
    mag = fx === fy ? 0 : fx < fy ? -1 : 1;
  }
  return sx * mag;
}

/** True when the text is a number above zero. */
export const isPositiveDecimal = (text: string | null | undefined): boolean =>
  !!text && /^\d*\.?\d*$/.test(text.trim()) && compareDecimal(text, '0') > 0;

/** a - b at `scale` decimals, exactly (bigint), for what is left to pay. */
export function subtractDecimal(a: string, b: string, scale: number): string {
  const units = (s: string) => {
    const t = (s || '0').trim();
    const neg = t.startsWith('-');
    const [i = '0', f = ''] = t.replace(/^[+-]/, '').split('.');
    const v = BigInt((i || '0') + f.padEnd(scale, '0').slice(0, scale));
    return neg ? -v : v;
  };
  const d = units(a) - units(b);
  const neg = d < 0n;
  const abs = (neg ? -d : d).toString().padStart(scale + 1, '0');
  const body = scale > 0 ? `${abs.slice(0, -scale)}.${abs.slice(-scale)}` : abs;
  return neg ? `-${body}` : body;
}

/** a + b at `scale` decimals, exactly. */
export const addDecimal = (a: string, b: string, scale: number): string =>
  subtractDecimal(
    a,
    (b || '0').trim().startsWith('-') ? (b || '0').trim().slice(1) : `-${(b || '0').trim()}`,
    scale,
  );

/** a x b rounded half away from zero to `scale` decimals, exactly (bigint). */
export function multiplyDecimal(a: string, b: string, scale: number): string {
  const parse = (s: string) => {
    const t = (s || '0').trim();
    const neg = t.startsWith('-');
    const [i = '0', f = ''] = t.replace(/^[+-]/, '').split('.');
    return { neg, digits: BigInt((i || '0') + f), places: f.length };
  };
  const x = parse(a);
  const y = parse(b);
  const places = x.places + y.places;
  let v = x.digits * y.digits; // at `places` decimals
  if (places > scale) {
    const div = 10n ** BigInt(places - scale);
    v = (v + div / 2n) / div; // half away from zero (v is non-negative here)
  } else v *= 10n ** BigInt(scale - places);
  const neg = x.neg !== y.neg && v !== 0n;
  const abs = v.toString().padStart(scale + 1, '0');
  const body = scale > 0 ? `${abs.slice(0, -scale)}.${abs.slice(-scale)}` : abs;
  return neg ? `-${body}` : body;
}

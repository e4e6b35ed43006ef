import { ApiError, type ErrorBody, errorText } from '@bahi/ui';

/** Every field path of a form's values, dotted ('common.godown_id', 'sales.0.rate'). */
export function fieldPaths(values: unknown, prefix = ''): string[] {
  if (values === null || typeof values !== 'object') return prefix ? [prefix] : [];
  const out: string[] = prefix ? [prefix] : [];
  for (const [k, v] of Object.entries(values as Record<string, unknown>)) {
    out.push(...fieldPaths(v, prefix ? `${prefix}.${k}` : k));
  }
  return out;
}

export interface SplitErrors {
  /** Messages for fields the form has, by field path. */
  fields: Record<string, string>;
  /** What has no field: shown in the dialog's alert (null when everything found its field). */
  alert: string | null;
}

/**
 * A failed save, split by where it belongs: each `errors[].path` the form has a field for goes
 * on that field; the rest (and a refusal without paths) goes to the alert, by the rule of spec
 * section 8. A 400's generic 'The request is not valid.' never hides the reasons.
 */
export function splitServerErrors(
  error: unknown,
  known: readonly string[],
  fallback: string,
  aliases: Record<string, string> = {},
): SplitErrors {
  if (!(error instanceof ApiError)) return { fields: {}, alert: errorText(error, fallback) };
  const body = (error.body ?? {}) as ErrorBody;
  const list = Array.isArray(body.errors) ? body.errors : [];
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const e of list) {
    const msg = typeof e?.msg === 'string' ? e.msg : '';
    if (!msg) continue;
    const raw = typeof e?.path === 'string' ? e.path : '';
    const path = aliases[raw] ?? raw;
    if (path && known.includes(path)) {
      if (!fields[path]) fields[path] = msg;
    } else rest.push(msg);
  }
  const message = typeof body.message === 'string' ? body.message.trim() : '';
  if (list.length === 0) return { fields, alert: errorText(error, fallback) };
  if (rest.length) return { fields, alert: rest.join(', ') };
  // Every reason is on its field. A specific message that is not one of them still shows.
  const onFields = new Set(Object.values(fields));
  const generic = error.status === 400 && message === 'The request is not valid.';
  return { fields, alert: message && !generic && !onFields.has(message) ? message : null };
}

import type { ChainVerification } from './types.ts';

const REASONS = {
  altered: 'the event (or its seal) was changed after it was sealed',
  missing: 'a sealed event is no longer in the log',
  inserted: 'an event sits below the sealed head with no seal: it was put there behind the seal',
} as const;

/** A verification in words, for the System screen and the CLI (one or two sentences). */
export function describeVerification(v: ChainVerification): string {
  const tail =
    v.unsealed > 0
      ? ` ${v.unsealed} newer event${v.unsealed === 1 ? ' is' : 's are'} not sealed yet and ${v.unsealed === 1 ? 'was' : 'were'} not checked.`
      : '';
  if (v.status === 'intact')
    return `The books are intact up to position ${v.intactUpTo} (${v.checked} event${v.checked === 1 ? '' : 's'}, chain head ${v.chainHead.slice(0, 12)}).${tail}`;
  const b = v.broken!;
  const what = b.type
    ? ` (${b.type} in ${b.streamId}${b.recordedAt ? `, recorded ${b.recordedAt}` : ''})`
    : '';
  return (
    `The log is broken at position ${b.position}${what}: ${REASONS[b.reason]}. ` +
    `Stored hash ${b.stored ?? 'none'}, recomputed ${b.recomputed ?? 'none'}. ` +
    `It is intact up to position ${v.intactUpTo}; nothing from position ${b.position} on can be trusted.${tail}`
  );
}

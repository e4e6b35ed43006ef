import type { ClosedPeriodAnswer } from '@bahi/contracts';
import { showDay, showMoment } from '@bahi/ui/screen';

export type Close = NonNullable<ClosedPeriodAnswer['close']>;

/** 'Closed on 1 Nov 2026 10:15 by Asha' (the moment in the browser's time zone). */
export const closedLine = (close: Close) =>
  `Closed on ${showMoment(close.closed_at)}${close.closed_by ? ` by ${close.closed_by.name}` : ''}`;

/** What the note says under its title: which books, whether they still stand, the digest. */
export function closedDetail(close: Close, comparing: boolean): string {
  const books = `The books up to ${showDay(close.up_to)} were closed; these figures`;
  const digest = `Digest ${shortDigest(close.digest)}.`;
  if (!close.now.same)
    return `${books} have changed since: the books were reopened and restated.${comparing ? ' Marked: what changed since the close.' : ''} ${digest}`;
  if (close.now.reopened)
    return `${books} are the closed ones, though the books have been reopened since. ${digest}`;
  return `${books} are exactly the closed ones. ${digest}`;
}

/** The digest's start, as the report files print their codes: 1A2B-3C4D-5E6F. */
export const shortDigest = (hex: string) =>
  hex
    .slice(0, 12)
    .toUpperCase()
    .replace(/(.{4})(?=.)/g, '$1-');

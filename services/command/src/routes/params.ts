import { isUuid } from '@bahi/contracts';
import { HttpError } from '@bahi/server-kit';
import { z } from 'zod';

/** A record id from the URL: anything but a UUID names no record, so it is a 404, not a 400. */
export function recordId(id: string, label: string): string {
  if (!isUuid(id)) throw new HttpError(404, `${label} not found.`);
  return id.toLowerCase();
}

/** The `:id` of a record's URL, as a route's params schema (a 404 for an id that is no UUID). */
export const recordIdParams = (label: string) =>
  z.object({
    id: z
      .string()
      .describe(`The ${label.toLowerCase()}'s id (a UUID)`)
      .transform((id) => recordId(id, label)),
  });

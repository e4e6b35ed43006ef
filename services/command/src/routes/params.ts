import { HttpError } from '@bahi/server-kit';
import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A record id from the URL: anything but a UUID names no record, so it is a 404, not a 400. */
export function recordId(id: string, label: string): string {
  if (!UUID.test(id)) throw new HttpError(404, `${label} not found.`);
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

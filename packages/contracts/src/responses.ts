import { z } from 'zod';

// Response DTOs of the HTTP API: the routes declare them (openapi.json), a contract test checks
// the answers against them, and the frontends take their types from them (issue #19).

/** A log position as the API sends it: a decimal string (a bigint does not fit a JSON number). */
export const logPosition = z
  .string()
  .regex(/^\d+$/)
  .describe('The log position written; send it back as X-Bahi-Position to read this write');

/** The answer to a write of one record: its id and the position it was written at. */
export const writeAnswer = z.object({ id: z.string(), position: logPosition });
export type WriteAnswer = z.infer<typeof writeAnswer>;

/** The answer to a write of several records in one append (bulk sales). */
export const bulkWriteAnswer = z.object({
  ids: z.array(z.string()),
  count: z.number().int(),
  position: logPosition,
});
export type BulkWriteAnswer = z.infer<typeof bulkWriteAnswer>;

/** One page of a list (spec section 7): the rows and how many there are in all. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ data: z.array(row), totalItems: z.number().int().nonnegative() });

/** A row whose columns the route documents by name only (reports with many shapes). */
export const anyRow = z.record(z.string(), z.unknown());

/** A short confirmation with a message for the user. */
export const messageAnswer = z.object({ message: z.string() });

/** A user as the API shows one (never a password or its hash). */
export const userView = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: z.enum(['Admin', 'Manager', 'Collector', 'Viewer']),
  is_active: z.boolean(),
});
export type UserView = z.infer<typeof userView>;

/** POST /api/auth/login: the session token (also set as the event stream's cookie) and who signed in. */
export const loginAnswer = z.object({ token: z.string(), expiresIn: z.number(), user: userView });
export type LoginAnswer = z.infer<typeof loginAnswer>;

/** Whether the installed license is valid, why not, and its terms. */
export const licenseStatus = z.object({
  isValid: z.boolean(),
  reason: z.string().nullable(),
  config: z.record(z.string(), z.unknown()).nullable(),
});
export type LicenseStatus = z.infer<typeof licenseStatus>;

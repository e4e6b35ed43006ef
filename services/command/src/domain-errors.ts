import { DomainError } from '@bahi/domain';
import { type ErrorMapping, HttpError } from '@bahi/server-kit';

const STATUS = { invalid: 400, not_found: 404, conflict: 409, forbidden: 403 } as const;

/**
 * A domain refusal as the HTTP answer the UI shows (spec section 8's error shape), for the
 * one error handler: no route catches to translate.
 */
export const domainErrorToHttp: ErrorMapping = (error) =>
  error instanceof DomainError ? new HttpError(STATUS[error.kind], error.message, error.errors) : undefined;

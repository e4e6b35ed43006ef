/**
 * A refusal by the domain, in words a staff member understands. The HTTP layer maps the
 * kind to a status: invalid 400, not_found 404, conflict 409, forbidden 403.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly kind: 'invalid' | 'not_found' | 'conflict' | 'forbidden',
    message: string,
    readonly errors?: Array<{ msg: string; path: string }>,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
/** A conflict with the books; `path` names the field it concerns, so the form shows it there. */
export const conflict = (message: string, path?: string) =>
  new DomainError('conflict', message, path ? [{ msg: message, path }] : undefined);
export const invalid = (message: string, errors?: Array<{ msg: string; path: string }>) =>
  new DomainError('invalid', message, errors);

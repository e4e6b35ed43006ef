// No zod here: the frontends import this module alone ('@bahi/contracts/months') without the schemas.

/** The months of a salary, 1 to 12 (spec section 9): January to December. */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

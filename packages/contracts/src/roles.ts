// No zod here: the shell's first page imports this module alone ('@bahi/contracts/roles').

/** The four roles (spec section 6), in the order the screens list them. */
export const ROLES = ['Admin', 'Manager', 'Collector', 'Viewer'] as const;
export type Role = (typeof ROLES)[number];

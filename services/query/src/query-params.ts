/** A search text used in LIKE, with its wildcards taken literally. (The query strings themselves are @bahi/contracts' queries.ts.) */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

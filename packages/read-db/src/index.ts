export { sqlClientDialect } from './dialect.ts';
export { openReadDb, type ReadDb, readCheckpoints } from './read-db.ts';
export type * from './tables.ts';

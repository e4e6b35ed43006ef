export { sqlClientDialect } from './dialect.ts';
export {
  openReadDb,
  ProjectionBehindError,
  type ReadDb,
  readCheckpoints,
  waitForProjections,
} from './read-db.ts';
export type * from './tables.ts';

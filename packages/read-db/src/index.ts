export { sqlClientDialect } from './dialect.ts';
export { migrations } from './migrations/index.ts';
export {
  openReadDb,
  ProjectionBehindError,
  projectionStatus,
  type ReadDb,
  readCheckpoints,
  sqlClientOf,
  waitForProjections,
} from './read-db.ts';
export type * from './tables.ts';

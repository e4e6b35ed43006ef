export { CHAIN_GENESIS, type ChainedEvent, canonicalEvent, canonicalJson, chainHash } from './chain.ts';
export { createEventStoreDbEventStore, EventStoreDbEventStore } from './esdb/esdb-event-store.ts';
export { pollingSubscription } from './polling-subscription.ts';
export {
  createPostgresEventStore,
  migrateEventStore,
  PostgresEventStore,
  type PostgresEventStoreOptions,
  readStreamAfterSharedLock,
  toPayload as storedForm,
} from './postgres/postgres-event-store.ts';
export { eventStoreMigrations } from './postgres/schema.ts';
export {
  type ChainedRow,
  checkChainHead,
  readChainedRows,
  recomputeChainAt,
  sealChain,
  sealedChainAt,
  storeSeals,
  verifyChain,
} from './postgres/seal.ts';
export * from './types.ts';
export { describeVerification } from './verification.ts';
export { Wakeup } from './wakeup.ts';

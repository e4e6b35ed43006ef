import type { SqlQueryable } from '@bahi/sql-client';

/** Metadata every stored event carries. recordedAt is stamped by the store when absent. */
export interface EventMetadata {
  userId: string | null;
  correlationId: string;
  causationId: string | null;
  recordedAt: string;
  [key: string]: unknown;
}

export interface NewEvent {
  /** uuid; generated when absent. Appending an id that is already stored stores it once. */
  id?: string;
  type: string;
  data: unknown;
  metadata?: Partial<EventMetadata>;
}

export interface RecordedEvent {
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  streamId: string;
  /** 0-based version of the event within its stream. */
  streamVersion: bigint;
  /** Global position in $all; strictly increasing, not necessarily contiguous. */
  position: bigint;
}

/** 'no_stream': the stream must not exist; 'any': no check; a bigint: the stream's last version. */
export type ExpectedVersion = bigint | 'no_stream' | 'any';

export interface AppendResult {
  /** Version of the last event now in the stream: pass it as the next expected version. */
  nextExpectedVersion: bigint;
  /** Global position of the last event appended. */
  position: bigint;
}

export interface AppendOptions {
  /**
   * Postgres adapters: run the append on this connection, one the caller holds (a session that
   * also holds the advisory locks of the request). Whoever waits on those locks then knows the
   * append has committed or never will: a backend whose client died finishes the statement it
   * is running before it exits and lets its locks go. Ignored by EventStoreDB.
   */
  via?: SqlQueryable;
}

/** One stream's part of an appendBatch. */
export interface BatchAppend {
  streamId: string;
  events: readonly NewEvent[];
  expected: ExpectedVersion;
}

export interface ReadStreamOptions {
  fromVersion?: bigint;
  maxCount?: number;
}

export interface SubscribeOptions {
  /** How many events one read of $all fetches during catch-up. */
  batchSize?: number;
  signal?: AbortSignal;
}

/** Catches up from a position, then follows live; iterating yields each event once, in position order. */
export interface Subscription extends AsyncIterable<RecordedEvent> {
  close(): Promise<void>;
}

export interface EventStore {
  readonly kind: 'postgres' | 'pglite' | 'eventstoredb';
  append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedVersion,
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /** Events of one stream in version order; [] for a stream that does not exist. */
  /**
   * Several streams' appends, in the order given (their events take positions in that order),
   * all or none: a bulk load's (the fast seed's), one round trip instead of one per stream.
   * Any append that fails its expected version fails the whole batch. Stores that cannot do it
   * leave it out; callers then append stream by stream.
   */
  appendBatch?(appends: readonly BatchAppend[], options?: AppendOptions): Promise<AppendResult[]>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of $all strictly after a position (0n = from the start), in position order. */
  readAll(afterPosition: bigint, limit: number): Promise<RecordedEvent[]>;
  subscribe(afterPosition: bigint, options?: SubscribeOptions): Subscription;
  /**
   * Position of the last committed event (0n when empty): what "everything written so far"
   * means for a read-your-writes wait or a lag figure. A reader of $all may pass it a moment
   * later, once no older transaction is still open.
   */
  headPosition(): Promise<bigint>;
  /**
   * The distinct types of the events after `afterPosition` up to and including the event at
   * `upToPosition`, once no transaction below that event can still commit (else undefined: ask
   * again later, or read $all). Cheaper than reading the events themselves when a caller only
   * needs to know what kind of events lie in a stretch. Optional: adapters without it are read
   * with readAll.
   */
  eventTypesBetween?(afterPosition: bigint, upToPosition: bigint): Promise<string[] | undefined>;
  /**
   * The sealed chain head at a position (docs/event-store.md, "The seal"): the hash of the last
   * event at or below it, once the seal has reached it; undefined if it cannot within waitMs.
   * Postgres and PGlite only: EventStoreDB keeps no chain.
   */
  chainHeadAt?(position: bigint, waitMs?: number): Promise<ChainPoint | undefined>;
  /** Recomputes the chain over the whole log against the stored seals. Postgres and PGlite only. */
  verifyChain?(options?: VerifyChainOptions): Promise<ChainVerification>;
  close(): Promise<void>;
}

/** A point of the chain: the hash up to and including the event at position (0n: the genesis). */
export interface ChainPoint {
  position: bigint;
  hash: string;
}

export interface VerifyChainOptions {
  batchSize?: number;
  /** Seal what is final before verifying (default true). */
  seal?: boolean;
  onProgress?(progress: { checked: number; total: number; position: string }): void;
  signal?: AbortSignal;
}

/** Where the recomputed chain first differs from the stored seal. */
export interface ChainBreak {
  position: string;
  /**
   * altered: the event (or its seal) changed after it was sealed; missing: a sealed event is
   * gone; inserted: an event below the sealed head that was never sealed.
   */
  reason: 'altered' | 'missing' | 'inserted';
  /** The hash stored in the seal (null: none stored) and the one recomputed from the event (null: no event). */
  stored: string | null;
  recomputed: string | null;
  type?: string;
  streamId?: string;
  recordedAt?: string | null;
}

export interface ChainVerification {
  status: 'intact' | 'broken';
  /** Events whose hash matched their seal. */
  checked: number;
  /** Events at or below the sealed head. */
  total: number;
  /** The last position whose hash matched ('0': none); everything after it cannot be trusted when broken. */
  intactUpTo: string;
  /** The chain head at intactUpTo. */
  chainHead: string;
  sealedUpTo: string;
  /** The last committed position of the log. */
  head: string;
  /** Events above the sealed head (not final yet when the seal ran): not covered. */
  unsealed: number;
  startedAt: string;
  finishedAt: string;
  broken?: ChainBreak;
}

export class WrongExpectedVersionError extends Error {
  override readonly name = 'WrongExpectedVersionError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    /** The stream's current version, or 'no_stream'. */
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected version ${String(expected)}, actual ${String(actual)}`);
  }
}

/** Some, but not all, of the event ids of an append are already stored: a caller bug. */
export class DuplicateEventIdError extends Error {
  override readonly name = 'DuplicateEventIdError';
  constructor(
    readonly streamId: string,
    readonly eventIds: readonly string[],
  ) {
    super(`Stream ${streamId}: event ids already stored elsewhere: ${eventIds.join(', ')}`);
  }
}

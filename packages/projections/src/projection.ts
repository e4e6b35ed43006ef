import type { DomainEvent } from '@bahi/contracts';
import type { RecordedEvent } from '@bahi/event-store';
import type { Database } from '@bahi/read-db';
import type { Transaction } from 'kysely';

/**
 * A read model: applies a batch of events inside the transaction that also moves its
 * checkpoint, so a crash at any point replays cleanly. It never reads write-side state.
 */
export interface Projection {
  name: string;
  /** The read-db tables it alone writes (a rebuild fills these in a shadow schema and swaps them). */
  tables: readonly string[];
  /**
   * Non-unique indexes of those tables that `apply` reads through. A rebuild drops the other
   * non-unique indexes while it replays the log and builds them once at the end (unique ones,
   * which upserts need, always stay).
   */
  readIndexes?: readonly string[];
  apply(tx: Transaction<Database>, events: readonly RecordedEvent[]): Promise<void>;
}

/** A recorded event as its contract in @bahi/contracts types it: `switch (e.type)` narrows `e.data`. */
export type TypedEvent = Omit<RecordedEvent, 'type' | 'data'> & DomainEvent;

/**
 * The recorded event, typed by its contract. No parse at run time: the command side parses every
 * event against its schema before it appends it (execute.ts), and an event a projection still
 * cannot apply stops that projection until it is quarantined (quarantine.ts) - a rebuild of a
 * million events does not pay for a second parse.
 */
export const typed = (event: RecordedEvent): TypedEvent => event as unknown as TypedEvent;

/** What the projector tells, at the level of what happened (pino's `app.log` fits). */
export interface ProjectorLog {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

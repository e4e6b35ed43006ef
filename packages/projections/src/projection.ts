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

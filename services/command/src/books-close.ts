import { BOOKS_STREAM, parseEvent } from '@bahi/contracts';
import { evolveBooks, initialBooks } from '@bahi/domain';
import type { EventStore } from '@bahi/event-store';
import type { WriteScope } from './write-scope.ts';

/** The lock every dated write holds shared, and a close or reopening exclusive (docs/decisions.md). */
export const BOOKS_LOCK = 'books';

/**
 * The date the books are closed up to, as the log has it now, for a write about to append
 * dated records. A real write (with a scope) first takes the books' lock shared and keeps it
 * until the request ends: a close or a reopening takes it exclusive, so it waits for every
 * write that read the old close to finish, and every write after it reads the new one - on
 * every command copy (advisory locks on Postgres, in-process locks on PGlite). A dry run takes
 * no lock: it appends nothing, and answers as a save at that moment would.
 */
export async function closedUpTo(store: EventStore, scope: WriteScope | undefined): Promise<string | null> {
  const recorded = scope
    ? await scope.locks.sharedThenRead(BOOKS_LOCK, store, BOOKS_STREAM)
    : await store.readStream(BOOKS_STREAM);
  let state = initialBooks();
  for (const e of recorded) state = evolveBooks(state, parseEvent(e.type, e.data));
  return state.closedUpTo;
}

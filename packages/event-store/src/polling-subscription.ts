import type { RecordedEvent, Subscription } from './types.ts';
import type { Wakeup } from './wakeup.ts';

export interface PollingSubscriptionSource {
  readAll(afterPosition: bigint, limit: number): Promise<RecordedEvent[]>;
  wakeup: Wakeup;
  /** Fallback when no wake-up arrives (a lost NOTIFY, a commit by another process). */
  pollIntervalMs: number;
  /** Called once on first iteration so the source can start listening for wake-ups. */
  start?(): Promise<void>;
}

/**
 * Catch-up then live, on top of readAll: read batches until one comes back short, then
 * wait for a wake-up (or the poll interval) and read again. The reader never passes a
 * position that an open transaction could still fill (readAll guarantees it), so the
 * position of the last event yielded is a safe checkpoint.
 */
export function pollingSubscription(
  source: PollingSubscriptionSource,
  afterPosition: bigint,
  options: { batchSize?: number; signal?: AbortSignal } = {},
): Subscription {
  const batchSize = options.batchSize ?? 500;
  const abort = new AbortController();
  const onOuterAbort = () => abort.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let started = false;

  async function* iterate(): AsyncGenerator<RecordedEvent> {
    if (started) throw new Error('A subscription can be iterated once');
    started = true;
    await source.start?.();
    let position = afterPosition;
    try {
      while (!abort.signal.aborted) {
        const seen = source.wakeup.count;
        const batch = await source.readAll(position, batchSize);
        for (const event of batch) {
          if (abort.signal.aborted) return;
          position = event.position;
          yield event;
        }
        if (batch.length < batchSize) await source.wakeup.wait(seen, source.pollIntervalMs, abort.signal);
      }
    } finally {
      options.signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  const iterator = iterate();
  return {
    [Symbol.asyncIterator]: () => iterator,
    async close() {
      abort.abort();
      await iterator.return(undefined);
    },
  };
}

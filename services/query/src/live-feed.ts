import type { EventStore, RecordedEvent, Subscription } from '@bahi/event-store';

/**
 * What a live stream needs of an event: where it is, what kind, whose, and the data of the few
 * kinds whose message carries it (notifications, read marks, license checks). Everything else
 * of the event (a sale's lines, say) stays in the log: the window below holds thousands of these.
 */
export interface FeedEvent {
  position: bigint;
  type: string;
  streamId: string;
  data?: unknown;
}

const KEEPS_DATA = /^(Notification|LicenseChecked$)/;
const slim = (event: RecordedEvent): FeedEvent => ({
  position: event.position,
  type: event.type,
  streamId: event.streamId,
  ...(KEEPS_DATA.test(event.type) ? { data: event.data } : {}),
});

/**
 * The one reader of the log's tail for every live stream of this process (issue #27.4): a
 * single subscription keeps the last `window` positions in memory, and each stream is a cursor
 * over them. A stream that resumes from a Last-Event-ID replays from memory, never with a log
 * query of its own, so 200 reconnecting tabs cost one reader, not 200.
 */
export class LiveFeed {
  readonly #store: EventStore;
  readonly #window: bigint;
  /** Every event of the log after #from, up to #position, in order. */
  #events: FeedEvent[] = [];
  #from = 0n;
  #position = 0n;
  #starting: Promise<void> | undefined;
  #subscription: Subscription | undefined;
  #closed = false;
  #arrived: { promise: Promise<void>; resolve: () => void } = withResolvers();
  #waking = false;
  #retry: NodeJS.Timeout | undefined;
  readonly #onError: (error: unknown) => void;

  constructor(store: EventStore, window: bigint, onError: (error: unknown) => void = () => {}) {
    this.#store = store;
    this.#window = window;
    this.#onError = onError;
  }

  /**
   * Starts the reader (once): from `window` positions before the head; resolves once it has
   * read up to the head it found.
   */
  start(): Promise<void> {
    this.#starting ??= (async () => {
      const head = await this.#store.headPosition();
      this.#from = head > this.#window ? head - this.#window : 0n;
      this.#position = this.#from;
      this.#follow();
      while (this.#position < head && !this.#closed) await this.arrival();
    })().catch((error) => {
      this.#starting = undefined;
      throw error;
    });
    return this.#starting;
  }

  /** Positions after this one are all here (a cursor below it has fallen out of the window). */
  get from(): bigint {
    return this.#from;
  }

  /**
   * Up to `max` events after `position`, in order; [] when none has arrived yet (wait with
   * `arrival`); undefined when `position` has fallen out of the window.
   */
  after(position: bigint, max: number): FeedEvent[] | undefined {
    if (position < this.#from) return undefined;
    const events = this.#events;
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (events[mid]!.position <= position) lo = mid + 1;
      else hi = mid;
    }
    return events.slice(lo, lo + max);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves when the next events arrive (or the feed closes). */
  arrival(): Promise<void> {
    return this.#arrived.promise;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#arrived.resolve();
    await this.#subscription?.close();
  }

  #follow(): void {
    if (this.#closed) return;
    const subscription = this.#store.subscribe(this.#position);
    this.#subscription = subscription;
    void (async () => {
      for await (const event of subscription) {
        if (this.#closed) break;
        this.#events.push(slim(event));
        this.#position = event.position;
        this.#trim();
        // One wake-up for the events that arrive together: the streams take them in chunks.
        if (!this.#waking) {
          this.#waking = true;
          queueMicrotask(() => this.#wake());
        }
      }
    })().catch((error) => {
      // The log went away (a restart of Postgres, say): streams wait, the reader resumes.
      this.#onError(error);
      void subscription.close().catch(() => {});
      this.#retry = setTimeout(() => this.#follow(), 1000);
      this.#retry.unref();
    });
  }

  #wake(): void {
    this.#waking = false;
    const { resolve } = this.#arrived;
    this.#arrived = withResolvers();
    resolve();
  }

  /** Keeps the last `window` positions; drops older ones a thousand at a time. */
  #trim(): void {
    const keepAfter = this.#position - this.#window;
    if (keepAfter <= this.#from + 1000n) return;
    let drop = 0;
    while (drop < this.#events.length && this.#events[drop]!.position <= keepAfter) drop++;
    this.#events = this.#events.slice(drop);
    this.#from = keepAfter;
  }
}

function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Turns for the streams' work: at most `concurrency` streams format and write a chunk at a
 * time, and every turn starts on a later turn of the event loop (setImmediate), so the
 * requests that arrived meanwhile are served between any two chunks however many streams
 * are catching up.
 */
export class Turns {
  readonly #concurrency: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(concurrency: number) {
    this.#concurrency = concurrency;
  }

  take(): Promise<void> {
    if (this.#active < this.#concurrency) {
      this.#active++;
      // Even a free turn starts on a later turn of the loop: a stream alone does not replay its
      // whole window in one go, nor a stream just opened before the next request is read.
      return new Promise((resolve) => setImmediate(resolve));
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  give(): void {
    const next = this.#waiting.shift();
    if (next) setImmediate(next);
    else this.#active--;
  }
}

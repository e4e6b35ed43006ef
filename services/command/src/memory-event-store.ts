import {
  type AppendResult,
  DuplicateEventIdError,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  pollingSubscription,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  storedForm,
  Wakeup,
  WrongExpectedVersionError,
} from '@bahi/event-store';

/**
 * An event store held in this process's memory, for the fast seed (seed-fast.ts) only: the
 * command handlers decide against it as they would against Postgres (the same expected
 * versions, the same metadata the Postgres append stamps), without a round trip per read or
 * append; what it holds is then copied into the real log through the one door. Not a store
 * to run a service on: nothing survives the process.
 */
export class MemoryEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  readonly #log: RecordedEvent[] = [];
  readonly #streams = new Map<string, RecordedEvent[]>();
  readonly #ids = new Set<string>();
  readonly #wakeup = new Wakeup();

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedVersion,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError('append needs at least one event');
    const stream = this.#streams.get(streamId) ?? [];
    const actual = stream.length === 0 ? 'no_stream' : BigInt(stream.length - 1);
    if (expected !== 'any' && expected !== actual)
      throw new WrongExpectedVersionError(streamId, expected, actual);
    const stored = storedForm(events, new Date().toISOString()); // as the Postgres store stamps them
    if (stored.some((e) => this.#ids.has(e.id)))
      throw new DuplicateEventIdError(
        streamId,
        stored.map((e) => e.id),
      );
    for (const event of stored) {
      const recorded: RecordedEvent = {
        ...event,
        metadata: event.metadata as RecordedEvent['metadata'],
        streamId,
        streamVersion: BigInt(stream.length),
        position: BigInt(this.#log.length + 1),
      };
      stream.push(recorded);
      this.#log.push(recorded);
      this.#ids.add(recorded.id);
    }
    this.#streams.set(streamId, stream);
    this.#wakeup.signal();
    const last = stream.at(-1)!;
    return { nextExpectedVersion: last.streamVersion, position: last.position };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const stream = this.#streams.get(streamId) ?? [];
    const from = Number(options.fromVersion ?? 0n);
    return stream.slice(from, options.maxCount === undefined ? undefined : from + options.maxCount);
  }

  async readAll(afterPosition: bigint, limit: number): Promise<RecordedEvent[]> {
    return this.#log.slice(Number(afterPosition), Number(afterPosition) + limit);
  }

  subscribe(afterPosition: bigint, options: SubscribeOptions = {}): Subscription {
    return pollingSubscription(
      { readAll: (after, limit) => this.readAll(after, limit), wakeup: this.#wakeup, pollIntervalMs: 50 },
      afterPosition,
      options,
    );
  }

  async headPosition(): Promise<bigint> {
    return BigInt(this.#log.length);
  }

  /** Every event, in the order appended. */
  events(): readonly RecordedEvent[] {
    return this.#log;
  }

  async close(): Promise<void> {}
}

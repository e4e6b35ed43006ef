import { randomUUID } from 'node:crypto';
import {
  ANY,
  END,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  EventStoreDBClient,
  excludeSystemEvents,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  type Position,
  type ResolvedEvent,
  START,
  StreamNotFoundError,
} from '@eventstore/db-client';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedVersionError,
} from '../types.ts';

/**
 * The event store on EventStoreDB. Our global position is the event's commit position in
 * the server's log (single-event records on EventStoreDB 20+ have commit = prepare); our
 * stream versions are its 0-based stream revisions. Event-id idempotency is the server's
 * own (a retried append with the same ids and expected version is acknowledged once).
 */
export class EventStoreDbEventStore implements EventStore {
  readonly kind = 'eventstoredb' as const;
  readonly #client: EventStoreDBClient;
  readonly #now: () => Date;

  constructor(client: EventStoreDBClient, options: { now?: () => Date } = {}) {
    this.#client = client;
    this.#now = options.now ?? (() => new Date());
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedVersion,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError('append needs at least one event');
    const recordedAt = this.#now().toISOString();
    try {
      const result = await this.#client.appendToStream(
        streamId,
        events.map((event) =>
          jsonEvent({
            id: event.id ?? randomUUID(),
            type: event.type,
            data: (event.data ?? null) as never,
            metadata: {
              userId: null,
              causationId: null,
              ...event.metadata,
              correlationId: event.metadata?.correlationId ?? randomUUID(),
              recordedAt: event.metadata?.recordedAt ?? recordedAt,
            },
          }),
        ),
        { expectedRevision: expected === 'no_stream' ? NO_STREAM : expected === 'any' ? ANY : expected },
      );
      return { nextExpectedVersion: result.nextExpectedRevision, position: result.position?.commit ?? 0n };
    } catch (error) {
      if (error instanceof EsdbWrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedVersionError(
          streamId,
          expected,
          typeof actual === 'bigint' ? actual : 'no_stream',
        );
      }
      throw error;
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.#client.readStream(streamId, {
        fromRevision: options.fromVersion ?? START,
        direction: FORWARDS,
        ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
      })) {
        const event = toRecorded(resolved);
        if (event) out.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  async readAll(afterPosition: bigint, limit: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    // readAll is inclusive of its start; system events ($...) are not ours and are skipped.
    for await (const resolved of this.#client.readAll({
      fromPosition: afterPosition === 0n ? START : at(afterPosition),
      direction: FORWARDS,
      maxCount: limit + 1,
    })) {
      const event = toRecorded(resolved);
      if (!event || event.position <= afterPosition || event.type.startsWith('$')) continue;
      out.push(event);
      if (out.length >= limit) break;
    }
    return out;
  }

  subscribe(afterPosition: bigint, options: SubscribeOptions = {}): Subscription {
    const subscription = this.#client.subscribeToAll({
      fromPosition: afterPosition === 0n ? START : at(afterPosition),
      filter: excludeSystemEvents(),
    });
    const onAbort = () => void subscription.unsubscribe();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    async function* iterate(): AsyncGenerator<RecordedEvent> {
      try {
        for await (const resolved of subscription) {
          const event = toRecorded(resolved);
          if (event && event.position > afterPosition) yield event;
        }
      } finally {
        options.signal?.removeEventListener('abort', onAbort);
        await subscription.unsubscribe();
      }
    }
    const iterator = iterate();
    return {
      [Symbol.asyncIterator]: () => iterator,
      async close() {
        await subscription.unsubscribe();
        await iterator.return(undefined);
      },
    };
  }

  async headPosition(): Promise<bigint> {
    for await (const resolved of this.#client.readAll({
      fromPosition: END,
      direction: 'backwards',
      maxCount: 50,
    })) {
      const event = toRecorded(resolved);
      if (event && !event.type.startsWith('$')) return event.position;
    }
    return 0n;
  }

  async close(): Promise<void> {
    await this.#client.dispose();
  }
}

function at(position: bigint): Position {
  return { commit: position, prepare: position };
}

function toRecorded(resolved: ResolvedEvent): RecordedEvent | undefined {
  const event = resolved.event;
  if (!event?.position) return undefined;
  const metadata = (event.metadata ?? {}) as Partial<EventMetadata>;
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: {
      userId: null,
      causationId: null,
      correlationId: '',
      ...metadata,
      recordedAt: metadata.recordedAt ?? event.created.toISOString(),
    },
    streamId: event.streamId,
    streamVersion: event.revision,
    position: event.position.commit,
  };
}

export async function createEventStoreDbEventStore(
  connectionString: string,
): Promise<EventStoreDbEventStore> {
  return new EventStoreDbEventStore(EventStoreDBClient.connectionString`${connectionString}`);
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { type DomainEvent, parseEvent } from '@bahi/contracts';
import {
  conflict,
  type Decider,
  datesARecord,
  indexRecordDate,
  type RecordDates,
  refuseClosedPeriod,
  requireStorable,
} from '@bahi/domain';
import { type EventStore, type RecordedEvent, WrongExpectedVersionError } from '@bahi/event-store';
import { appendToLog, checkEvent, type LogEvent } from '@bahi/server-kit';
import { closedUpTo } from './books-close.ts';
import { afterKeyedAppend } from './failpoints.ts';
import { derivedUuid, type KeyedWrite, LOCK_WAIT_MS, writeScopes } from './write-scope.ts';

/** Who asked, carried in every event's metadata. */
export interface RequestMeta {
  userId: string | null;
  correlationId: string;
  causationId: string | null;
}

/** What loading a stream needs of a decider: where to start and how each event changes the state. */
export type StreamDecider<S> = Pick<Decider<unknown, S>, 'initialState' | 'evolve'>;

/**
 * How long a write keeps deciding again while other processes append to its stream first: as
 * long as it would wait for a lock. A bound by count starved a process's head of the queue
 * while another process's fresh requests kept winning (CI, 50 sales from two processes).
 */
const RETRY_FOR_MS = LOCK_WAIT_MS;

/** The events a dry run (dry-run.ts) would have appended, in order, over every stream it ran. */
export interface DryRun {
  events: DomainEvent[];
}

/**
 * Set around a request's handler when it is a dry run: `execute` then loads, decides and
 * checks the events as always but appends nothing, collecting them here instead.
 */
export const dryRuns = new AsyncLocalStorage<DryRun>();

/**
 * Requests for one stream in this process take turns: they would only conflict with each
 * other and retry. Other processes (command replicas) still meet at the expected version.
 */
const queues = new WeakMap<EventStore, Map<string, Promise<unknown>>>();

async function inTurn<T>(store: EventStore, streamId: string, fn: () => Promise<T>): Promise<T> {
  let byStream = queues.get(store);
  if (!byStream) {
    byStream = new Map();
    queues.set(store, byStream);
  }
  const previous = byStream.get(streamId) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  byStream.set(streamId, settled);
  try {
    return await run;
  } finally {
    if (byStream.get(streamId) === settled) byStream.delete(streamId);
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Folded state of recently written streams, per store: a godown's inventory stream holds
 * its whole history, and folding it anew on every write would make each write slower than
 * the last. Used only inside a stream's turn (the inventory fold mutates its state), it
 * reads just the events after the cached version; other processes' appends arrive that way
 * too, and the expected version still catches any race. Bounded, least recently used first out.
 */
let cachedStreams = 500;

/** How many streams' folded state each process keeps (0: none). For benchmarks and operators. */
export function setStreamCacheSize(size: number): void {
  cachedStreams = size;
}
interface Cached {
  evolve: StreamDecider<unknown>['evolve'];
  state: unknown;
  /** Each record's business date in the stream, for the close guard (books-close.ts). */
  dates: RecordDates;
  version: bigint;
  last: RecordedEvent;
}
const caches = new WeakMap<EventStore, Map<string, Cached>>();

async function loadCached<S>(
  store: EventStore,
  streamId: string,
  decider: StreamDecider<S>,
): Promise<{ state: S; dates: RecordDates; version: bigint | 'no_stream'; last: RecordedEvent | undefined }> {
  let cache = caches.get(store);
  if (!cache) {
    cache = new Map();
    caches.set(store, cache);
  }
  const hit = cache.get(streamId);
  cache.delete(streamId);
  if (!hit || hit.evolve !== decider.evolve) {
    const loaded = await loadStream(store, streamId, decider);
    if (loaded.last)
      remember(cache, streamId, {
        evolve: decider.evolve as Cached['evolve'],
        state: loaded.state,
        dates: loaded.dates,
        version: loaded.last.streamVersion,
        last: loaded.last,
      });
    return loaded;
  }
  const newer = await store.readStream(streamId, { fromVersion: hit.version + 1n });
  let state = hit.state as S;
  const dates = hit.dates;
  for (const event of newer) {
    const parsed = parseEvent(event.type, event.data); // throws: entry already out
    state = decider.evolve(state, parsed);
    indexRecordDate(dates, parsed);
  }
  const last = newer.at(-1) ?? hit.last;
  remember(cache, streamId, { ...hit, state, dates, version: last.streamVersion, last });
  return { state, dates, version: last.streamVersion, last };
}

/**
 * Streams shorter than this are cheap to read again and are not kept: each payment, expense
 * or transfer has a stream of its own, and keeping those would push the long streams (a
 * godown's inventory) out of the cache, so that every write refolds a growing history.
 */
const CACHE_FROM_EVENTS = 16n;

function remember(cache: Map<string, Cached>, streamId: string, entry: Cached): void {
  if (entry.version + 1n < CACHE_FROM_EVENTS) return;
  cache.set(streamId, entry);
  while (cache.size > cachedStreams) cache.delete(cache.keys().next().value!);
}

const stepEventId = (keyed: KeyedWrite, step: number, index: number) =>
  derivedUuid(keyed.nonce, `event:${step}:${index}`);

/**
 * What an earlier attempt of this keyed request appended at this step, if it did: the same
 * answer as it got (the position of its last event), and nothing decided or appended again.
 */
async function appendedEarlier(
  store: EventStore,
  streamId: string,
  keyed: KeyedWrite,
  step: number,
): Promise<{ position: bigint; events: DomainEvent[] } | undefined> {
  const byId = new Map((await store.readStream(streamId)).map((e) => [e.id, e]));
  const found: RecordedEvent[] = [];
  for (let index = 0; ; index++) {
    const event = byId.get(stepEventId(keyed, step, index));
    if (!event) break;
    found.push(event);
  }
  const last = found.at(-1);
  if (!last) return undefined;
  return { position: last.position, events: found.map((e) => parseEvent(e.type, e.data)) };
}

/** A stream folded to its current state, with the version to append after. */
export async function loadStream<S>(
  store: EventStore,
  streamId: string,
  decider: StreamDecider<S>,
): Promise<{ state: S; dates: RecordDates; version: bigint | 'no_stream'; last: RecordedEvent | undefined }> {
  const recorded = await store.readStream(streamId);
  let state = decider.initialState();
  const dates: RecordDates = new Map();
  for (const e of recorded) {
    const event = parseEvent(e.type, e.data);
    state = decider.evolve(state, event);
    indexRecordDate(dates, event);
  }
  const last = recorded.at(-1);
  return { state, dates, version: last ? last.streamVersion : 'no_stream', last };
}

/**
 * Load, decide, append with the expected version; on a concurrent change, load and decide
 * again, a bounded number of times. Returns the position written (or, when the decision
 * records nothing, the stream's last position) so the client can read its own write.
 */
export function execute<C, S>(
  store: EventStore,
  meta: RequestMeta,
  streamId: string,
  decider: Decider<C, S>,
  command: C,
): Promise<{ position: bigint; events: DomainEvent[] }>;
/** The same, with a decision that needs more than the decider's own `decide` (a user's email, say). */
export function execute<S>(
  store: EventStore,
  meta: RequestMeta,
  streamId: string,
  decider: StreamDecider<S>,
  decide: (state: S) => DomainEvent[],
): Promise<{ position: bigint; events: DomainEvent[] }>;
export function execute<C, S>(
  store: EventStore,
  meta: RequestMeta,
  streamId: string,
  decider: StreamDecider<S> & Partial<Pick<Decider<C, S>, 'decide'>>,
  commandOrDecide: C | ((state: S) => DomainEvent[]),
): Promise<{ position: bigint; events: DomainEvent[] }> {
  const decide =
    typeof commandOrDecide === 'function'
      ? (commandOrDecide as (state: S) => DomainEvent[])
      : (state: S) => decider.decide!(commandOrDecide, state);
  const dryRun = dryRuns.getStore();
  const scope = dryRun ? undefined : writeScopes.getStore();
  const keyed = scope?.keyed;
  // The n-th call of a keyed request: its events' ids are the same on every attempt of it.
  const step = keyed ? keyed.steps++ : 0;
  const decided = inTurn(store, streamId, async () => {
    if (keyed?.recovering) {
      const earlier = await appendedEarlier(store, streamId, keyed, step);
      if (earlier) return earlier;
      keyed.recovering = false; // this step, and every later one, never happened
    }
    const since = Date.now();
    for (let attempt = 0; ; attempt++) {
      const { state, dates, version, last } = await loadCached(store, streamId, decider);
      const events = decide(state);
      if (events.length === 0) return { position: last?.position ?? 0n, events };
      // The period close, for every write of a dated record (docs/decisions.md, "The period
      // close"): read under the books' shared lock, held until the request ends.
      if (datesARecord(events)) refuseClosedPeriod(events, dates, await closedUpTo(store, scope));
      // An event a read model could not hold would stop a projection for good; one that breaks
      // its schema is a bug: the door (appendToLog) parses each before it is stored.
      const toAppend = events.map((event, index): LogEvent => {
        requireStorable(event);
        return { ...event, ...(keyed ? { id: stepEventId(keyed, step, index) } : {}), metadata: meta };
      });
      if (dryRun) {
        for (const event of events) checkEvent(event);
        // Checked as a write would be, and not appended: the answer is the preview of these.
        dryRun.events.push(...events);
        return { position: last?.position ?? 0n, events };
      }
      try {
        // A keyed request appends on the connection that holds its key: a retry that takes the
        // key over knows this append has committed or never will (write-scope.ts).
        const via = keyed ? scope?.locks.connection : undefined;
        const result = await appendToLog(store, streamId, toAppend, version, via ? { via } : {});
        if (scope) scope.appended = true;
        return { position: result.position, events };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        // Another process appended first: decide again on the state that now stands, at once
        // the first time (the other process's next request does not wait either), then after a
        // short random pause so that two losers do not meet again.
        if (Date.now() - since >= RETRY_FOR_MS) break;
        if (attempt > 0) await pause(Math.random() * Math.min(2 * attempt, 20));
      }
    }
    throw conflict('Someone else changed this record at the same moment. Please try again.');
  });
  // Outside the stream's turn, so that requests held there do not hold up the stream.
  if (!keyed?.fresh) return decided;
  return decided.then(async (result) => {
    await afterKeyedAppend(result.events);
    return result;
  });
}

import { QUARANTINE_STREAM } from '@bahi/contracts';
import type { EventMetadata, EventStore, RecordedEvent } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import { appendToLog } from '@bahi/server-kit';
import { allProjections } from './all-projections.ts';
import { typed } from './projection.ts';
import { resumeProjection } from './resume.ts';

/**
 * Quarantine (issue #16): an event already in the log that a projection cannot apply stops
 * that projection (docs/read-side.md). An operator sees the failing event and sets it aside
 * for that projection with a reason: an `EventQuarantined` event in this stream, so the
 * decision is in the log with who made it and why. The projection then goes on without it, and
 * every rebuild of it leaves it out too. Nothing is deleted: the event stays in the log, and
 * the other projections still apply it. The decisions live in QUARANTINE_STREAM.
 */

export class QuarantineRefused extends Error {
  override readonly name = 'QuarantineRefused';
  constructor(
    readonly kind: 'unknown' | 'not-stopped' | 'not-failing',
    message: string,
  ) {
    super(message);
  }
}

export interface QuarantineEntry {
  projection: string;
  position: string;
  event_type: string;
  stream_id: string;
  reason: string;
  error: string | null;
  quarantined_at: string;
  quarantined_by: string | null;
}

/** Every quarantine decision, oldest first. */
export async function listQuarantined(eventStore: EventStore): Promise<QuarantineEntry[]> {
  const events = await eventStore.readStream(QUARANTINE_STREAM);
  return events.map(typed).flatMap((e) =>
    e.type === 'EventQuarantined'
      ? [
          {
            ...e.data,
            quarantined_at: e.metadata.recordedAt,
            quarantined_by: (e.metadata.userId as string | null | undefined) ?? null,
          },
        ]
      : [],
  );
}

/** The positions set aside, per projection. */
export async function loadQuarantined(eventStore: EventStore): Promise<Map<string, Set<bigint>>> {
  const byProjection = new Map<string, Set<bigint>>();
  for (const q of await listQuarantined(eventStore)) {
    const set = byProjection.get(q.projection) ?? new Set<bigint>();
    set.add(BigInt(q.position));
    byProjection.set(q.projection, set);
  }
  return byProjection;
}

/** A projection's quarantined events taken out of a batch. */
export const withoutQuarantined = (
  events: readonly RecordedEvent[],
  quarantined: ReadonlySet<bigint> | undefined,
): RecordedEvent[] =>
  quarantined && quarantined.size > 0 ? events.filter((e) => !quarantined.has(e.position)) : [...events];

export interface FailingEvent {
  projection: string;
  error: string | null;
  event: RecordedEvent;
}

/**
 * The event a stopped projection cannot apply: the first one after its checkpoint that is not
 * quarantined (the runner applies a failing batch event by event, so its checkpoint stops right
 * before it). Undefined when the projection is not stopped.
 */
export async function failingEvent(
  eventStore: EventStore,
  readDb: ReadDb,
  name: string,
): Promise<FailingEvent | undefined> {
  const row = await readDb
    .selectFrom('projection_checkpoints')
    .select(['position', 'status', 'error'])
    .where('name', '=', name)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.status !== 'failed') return undefined;
  const quarantined = (await loadQuarantined(eventStore)).get(name);
  let after = BigInt(row.position);
  for (;;) {
    const [event] = await eventStore.readAll(after, 1);
    if (!event) return undefined;
    if (!quarantined?.has(event.position)) return { projection: name, error: row.error, event };
    after = event.position;
  }
}

/**
 * Sets the failing event of a stopped projection aside and puts the projection back to work.
 * Only the event the projection is stopped at can be quarantined: one it applied, or one it
 * has not reached, would make the live read model and a rebuild disagree.
 */
export async function quarantineEvent(
  eventStore: EventStore,
  readDb: ReadDb,
  options: { projection: string; position: bigint; reason: string; metadata?: Partial<EventMetadata> },
): Promise<{ position: bigint; event: RecordedEvent }> {
  const { projection: name, position, reason } = options;
  if (!allProjections.some((p) => p.name === name))
    throw new QuarantineRefused('unknown', `There is no projection called "${name}".`);
  const failing = await failingEvent(eventStore, readDb, name);
  if (!failing)
    throw new QuarantineRefused(
      'not-stopped',
      `The ${name} projection is not stopped; there is nothing to quarantine.`,
    );
  if (failing.event.position !== position)
    throw new QuarantineRefused(
      'not-failing',
      `The ${name} projection is stopped at the event at position ${failing.event.position} (${failing.event.type}), not at ${position}.`,
    );
  const appended = await appendToLog(
    eventStore,
    QUARANTINE_STREAM,
    [
      {
        type: 'EventQuarantined',
        data: {
          projection: name,
          position: position.toString(),
          event_type: failing.event.type,
          stream_id: failing.event.streamId,
          reason,
          error: failing.error,
        },
        metadata: options.metadata,
      },
    ],
    'any',
  );
  await resumeProjection(readDb, name);
  return { position: appended.position, event: failing.event };
}

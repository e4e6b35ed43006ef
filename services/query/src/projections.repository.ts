import { type EventData, QUARANTINE_STREAM, type RebuildReport, type RebuildRow } from '@bahi/contracts';
import type { RecordedEvent } from '@bahi/event-store';
import type { QueryDeps } from './deps.ts';

/** What the System screen reads of the read models: quarantine decisions, failing events, rebuilds. */

/** The operators' quarantine decisions (the projector's quarantine.ts writes them). */
export async function quarantined(deps: QueryDeps) {
  return (await deps.eventStore.readStream(QUARANTINE_STREAM)).map((e) => {
    // The stream holds EventQuarantined events only (the contract's type; the projector writes them).
    const data = e.data as EventData<'EventQuarantined'>;
    return {
      projection: data.projection,
      position: BigInt(data.position),
      entry: { ...data, quarantinedAt: e.metadata.recordedAt, quarantinedBy: e.metadata.userId ?? null },
    };
  });
}

/** The event a stopped projection cannot apply: the first after its checkpoint not set aside. */
export async function failing(
  deps: QueryDeps,
  name: string,
  checkpoint: bigint,
  quarantine: Array<{ projection: string; position: bigint }>,
): Promise<RecordedEvent | undefined> {
  const aside = new Set(quarantine.filter((q) => q.projection === name).map((q) => q.position));
  let after = checkpoint;
  for (;;) {
    const [event] = await deps.eventStore.readAll(after, 1);
    if (!event || !aside.has(event.position)) return event;
    after = event.position;
  }
}

/** The ten latest rebuilds, newest first, with their progress and comparison reports. */
export async function readRecentRebuilds(deps: QueryDeps): Promise<RebuildRow[]> {
  const rebuilds = await deps.readDb
    .selectFrom('projection_rebuilds')
    .selectAll()
    .orderBy('requested_at', 'desc')
    .limit(10)
    .execute();
  return rebuilds.map((r) => ({
    id: r.id,
    projections: r.projections,
    swap: r.swap,
    status: r.status,
    requestedBy: r.requested_by,
    // Decimal text from either storage (PGlite reads an int8 as a number).
    position: String(r.position),
    target: String(r.target),
    // The projector writes it as a RebuildReport (rebuild.ts); the column is typed as JSON.
    report: r.report as RebuildReport | null,
    error: r.error,
    requestedAt: new Date(r.requested_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  }));
}

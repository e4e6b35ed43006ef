import type { EventStore } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import { allProjections } from './all-projections.ts';
import type { Projection } from './projection.ts';
import { ProjectionRunner } from './projection-runner.ts';
import { claimRequestedRebuild, rebuildProjections } from './rebuild.ts';

export { allProjections } from './all-projections.ts';

export interface Projector {
  stop(): Promise<void>;
}

/** Runs every projection, each on its own subscription and checkpoint. */
export function startProjector(deps: {
  eventStore: EventStore;
  readDb: ReadDb;
  projections?: readonly Projection[];
  log?: (message: string, fields?: Record<string, unknown>) => void;
  /** Most events a projection applies in one transaction. */
  batchSize?: number;
  /** How long a partial batch waits for more events (longer: fewer, larger transactions). */
  flushAfterMs?: number;
  /** How often to look for a rebuild asked for through the Admin API (0: never). */
  rebuildPollMs?: number;
}): Projector {
  const runners = (deps.projections ?? allProjections).map(
    (projection) =>
      new ProjectionRunner({
        eventStore: deps.eventStore,
        readDb: deps.readDb,
        projection,
        log: deps.log,
        ...(deps.batchSize ? { batchSize: deps.batchSize } : {}),
        ...(deps.flushAfterMs ? { flushAfterMs: deps.flushAfterMs } : {}),
      }),
  );
  for (const runner of runners) runner.start();
  const rebuilds =
    deps.rebuildPollMs === 0 ? undefined : watchRebuildRequests(deps, deps.rebuildPollMs ?? 1000);
  return {
    async stop() {
      await rebuilds?.stop();
      await Promise.all(runners.map((r) => r.stop()));
    },
  };
}

/**
 * Runs the rebuilds the Admin API asks for (one projector process claims each). The rebuild
 * swaps tables under the live runners; they take the same checkpoint row, so they simply go on.
 */
function watchRebuildRequests(
  deps: {
    eventStore: EventStore;
    readDb: ReadDb;
    projections?: readonly Projection[];
    log?: (message: string, fields?: Record<string, unknown>) => void;
  },
  pollMs: number,
) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    try {
      const claimed = await claimRequestedRebuild(deps.readDb);
      if (claimed) {
        deps.log?.('rebuild started', { id: claimed.id, projections: claimed.projections });
        const report = await rebuildProjections({
          eventStore: deps.eventStore,
          readDb: deps.readDb,
          names: claimed.projections,
          swap: claimed.swap,
          id: claimed.id,
          ...(deps.projections ? { projections: deps.projections } : {}),
        });
        deps.log?.('rebuild finished', { id: claimed.id, identical: report.identical });
      }
    } catch (error) {
      // Recorded on the rebuild's row; the live projections are untouched.
      deps.log?.('rebuild failed', { error: String(error) });
    } finally {
      if (!stopped) timer = setTimeout(() => (running = tick()), pollMs);
    }
  };
  timer = setTimeout(() => (running = tick()), pollMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

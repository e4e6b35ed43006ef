import type { EventStore } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import { sql } from 'kysely';
import { allProjections } from './all-projections.ts';
import { journal } from './journal.projection.ts';
import type { Projection, ProjectorLog } from './projection.ts';
import { ProjectionRunner } from './projection-runner.ts';
import { claimRequestedRebuild, RebuildRefused, rebuildProjections, requestRebuild } from './rebuild.ts';
import { recoverInterruptedRebuilds } from './rebuild-lock.ts';

export { allProjections } from './all-projections.ts';

export interface Projector {
  stop(): Promise<void>;
}

interface ProjectorDeps {
  eventStore: EventStore;
  readDb: ReadDb;
  projections?: readonly Projection[];
  log?: ProjectorLog;
  /** Most events a projection applies in one transaction. */
  batchSize?: number;
  /** How long a partial batch waits for more events (longer: fewer, larger transactions). */
  flushAfterMs?: number;
  /** How often to look for a rebuild asked for through the Admin API (0: never). */
  rebuildPollMs?: number;
  /** Events a rebuild reads from the log at a time (rebuildProjections' default when absent). */
  rebuildBatchSize?: number | undefined;
}

/**
 * Runs every projection, each on its own subscription and checkpoint, and (unless
 * rebuildPollMs is 0) the rebuilds asked for.
 */
export function startProjector(deps: ProjectorDeps): Projector {
  const runners = (deps.projections ?? allProjections).map(
    (projection) =>
      new ProjectionRunner({
        eventStore: deps.eventStore,
        readDb: deps.readDb,
        projection,
        ...(deps.log ? { log: deps.log } : {}),
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
 * Before it takes any rebuild up: a rebuild a crash interrupted is marked failed and its shadow
 * tables dropped (rebuild-lock.ts), and a journal built before it had its words (journal_words
 * and journal.words, issue #28) is rebuilt and swapped, so ledgers read their particulars from it.
 */
async function startUpRebuilds(deps: ProjectorDeps) {
  const recovered = await recoverInterruptedRebuilds(deps.readDb);
  if (recovered.rebuilds.length > 0 || recovered.schemas.length > 0)
    deps.log?.info(
      recovered,
      'rebuild: an interrupted rebuild is marked failed and its shadow tables dropped',
    );
  const projections = deps.projections ?? allProjections;
  if (!projections.includes(journal)) return;
  // The oldest line tells: a journal is rebuilt whole, so its lines have words or none has.
  const { rows } = await sql<{ missing: boolean }>`
    SELECT j.words IS NULL OR NOT EXISTS (SELECT 1 FROM journal_words w WHERE w.position = j.position) AS missing
      FROM journal j ORDER BY j.position LIMIT 1`.execute(deps.readDb);
  if (!rows[0]?.missing) return;
  try {
    const id = await requestRebuild(
      deps.readDb,
      { names: ['journal'], swap: true, requestedBy: 'projector' },
      projections,
    );
    deps.log?.info(
      { id, projections: ['journal'], reason: 'journal rows without words (built before journal_words)' },
      'rebuild: asked for, the journal has lines without their words',
    );
  } catch (error) {
    if (!(error instanceof RebuildRefused)) throw error;
    deps.log?.info(
      { reason: error.message },
      'rebuild: the journal lacks its words; a rebuild is already under way',
    );
  }
}

/**
 * Runs the rebuilds the Admin API asks for (one projector process claims each, with the lock it
 * holds while it runs). The rebuild swaps tables under the live runners; they take the same
 * checkpoint row, so they simply go on.
 */
function watchRebuildRequests(deps: ProjectorDeps, pollMs: number) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const log = deps.log;
  const tick = async () => {
    try {
      const claimed = await claimRequestedRebuild(deps.readDb);
      if (claimed) {
        const started = Date.now();
        log?.info(
          { id: claimed.id, projections: claimed.projections, swap: claimed.swap },
          'rebuild started',
        );
        const report = await rebuildProjections({
          eventStore: deps.eventStore,
          readDb: deps.readDb,
          names: claimed.projections,
          swap: claimed.swap,
          claimed,
          ...(deps.rebuildBatchSize ? { batchSize: deps.rebuildBatchSize } : {}),
          ...(deps.projections ? { projections: deps.projections } : {}),
          onProgress: ({ position, target, events }) =>
            log?.debug(
              { id: claimed.id, position: String(position), target: String(target), events },
              'rebuild progress',
            ),
          onProjectionStep: (projection, step) =>
            log?.debug({ id: claimed.id, projection, step }, 'rebuild step'),
        });
        const fields = {
          id: claimed.id,
          events: report.events,
          identical: report.identical,
          ms: Date.now() - started,
        };
        // A difference is what a rebuild is for (a damaged or outdated read model): its report
        // on the row says where; the log says which.
        log?.info(
          { ...fields, differing: report.comparisons.filter((c) => !c.identical).map((c) => c.projection) },
          'rebuild finished',
        );
      }
    } catch (error) {
      // Recorded on the rebuild's row; the live projections are untouched.
      log?.error({ error: String(error) }, 'rebuild failed');
    } finally {
      if (!stopped) timer = setTimeout(() => (running = tick()), pollMs);
    }
  };
  const first = async () => {
    try {
      await startUpRebuilds(deps);
    } catch (error) {
      log?.error({ error: String(error) }, 'rebuild: the start-up checks failed');
    }
    await tick();
  };
  running = first();
  return {
    async stop() {
      stopped = true;
      await running;
      clearTimeout(timer);
      await running;
    },
  };
}

import type { EventStore } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import { activityLog } from './activity-log.projection.ts';
import { cashRecords } from './cash-records.projection.ts';
import { customFieldDefinitions } from './custom-field-definitions.projection.ts';
import { eventTypeCounts } from './event-type-counts.projection.ts';
import { journal } from './journal.projection.ts';
import { masterReferences } from './master-references.projection.ts';
import { masters } from './masters.projection.ts';
import { notifications } from './notifications.projection.ts';
import type { Projection } from './projection.ts';
import { ProjectionRunner } from './projection-runner.ts';
import { purchasesAndSales } from './purchases-and-sales.projection.ts';
import { recordStreams } from './record-streams.projection.ts';

export const allProjections: readonly Projection[] = [
  eventTypeCounts,
  masterReferences,
  recordStreams,
  customFieldDefinitions,
  masters,
  journal,
  purchasesAndSales,
  cashRecords,
  activityLog,
  notifications,
];

export interface Projector {
  stop(): Promise<void>;
}

/** Runs every projection, each on its own subscription and checkpoint. */
export function startProjector(deps: {
  eventStore: EventStore;
  readDb: ReadDb;
  projections?: readonly Projection[];
  log?: (message: string, fields?: Record<string, unknown>) => void;
}): Projector {
  const runners = (deps.projections ?? allProjections).map(
    (projection) =>
      new ProjectionRunner({ eventStore: deps.eventStore, readDb: deps.readDb, projection, log: deps.log }),
  );
  for (const runner of runners) runner.start();
  return {
    async stop() {
      await Promise.all(runners.map((r) => r.stop()));
    },
  };
}

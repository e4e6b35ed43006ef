import { activityLog } from './activity-log.projection.ts';
import { cashRecords } from './cash-records.projection.ts';
import { customFieldDefinitions } from './custom-field-definitions.projection.ts';
import { eventTypeCounts } from './event-type-counts.projection.ts';
import { journal } from './journal.projection.ts';
import { masterReferences } from './master-references.projection.ts';
import { masters } from './masters.projection.ts';
import { notifications } from './notifications.projection.ts';
import type { Projection } from './projection.ts';
import { purchasesAndSales } from './purchases-and-sales.projection.ts';
import { recordStreams } from './record-streams.projection.ts';

/** Every read model, in the order they are started. */
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

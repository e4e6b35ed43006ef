import type { EventStore } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import type { LicenseService } from '@bahi/server-kit';

/** What every read route needs: the log (for its head and positions), the read models, the license. */
export interface QueryDeps {
  eventStore: EventStore;
  readDb: ReadDb;
  license: LicenseService;
}

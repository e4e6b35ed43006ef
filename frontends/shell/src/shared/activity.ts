import type { ActivityRow } from '@bahi/contracts';

/** An activity log entry (spec section 3), as GET /logs and /logs/recent answer it: their contract's. */
export type ActivityEntry = ActivityRow;

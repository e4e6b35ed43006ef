import type { Migration } from 'kysely';
import * as m20261121T0000 from './2026-11-21T00-00-projection-checkpoints.ts';
import * as m20261121T0100 from './2026-11-21T01-00-master-references.ts';
import * as m20261121T0200 from './2026-11-21T02-00-record-streams.ts';
import * as m20261121T0300 from './2026-11-21T03-00-custom-field-definitions.ts';
import * as m20261121T0400 from './2026-11-21T04-00-masters-and-journal.ts';
import * as m20261121T0500 from './2026-11-21T05-00-purchases-and-sales.ts';
import * as m20261121T0600 from './2026-11-21T06-00-cash-records.ts';
import * as m20261121T0700 from './2026-11-21T07-00-activity-log.ts';
import * as m20261121T0800 from './2026-11-21T08-00-notifications.ts';
import * as m20261121T0900 from './2026-11-21T09-00-projection-rebuilds.ts';
import * as m20261121T1000 from './2026-11-21T10-00-account-totals.ts';
import * as m20261121T1100 from './2026-11-21T11-00-list-order-indexes.ts';
import * as m20261121T1200 from './2026-11-21T12-00-cash-record-nominal-inr.ts';
import * as m20261121T1300 from './2026-11-21T13-00-account-days-nominal.ts';
import * as m20261121T1400 from './2026-11-21T14-00-activity-log-by-record.ts';
import * as m20261124T0000 from './2026-11-24T00-00-wide-account-sums.ts';
import * as m20261125T0000 from './2026-11-25T00-00-activity-log-returns.ts';
import * as m20261125T0100 from './2026-11-25T01-00-cash-record-nominal-inr-standing.ts';
import * as m20261126T0000 from './2026-11-26T00-00-journal-words-and-corrections.ts';
import * as m20261128T0000 from './2026-11-28T00-00-journal-line-words.ts';
import * as m20261128T0100 from './2026-11-28T01-00-book-close-figures.ts';
import * as m20261128T0200 from './2026-11-28T02-00-record-adjusts.ts';
import * as m20261129T0000 from './2026-11-29T00-00-account-days-opening.ts';

/** Every read-db migration, named by timestamp; kysely applies them in name order. */
export const migrations: Record<string, Migration> = {
  '2026-11-21T00-00-projection-checkpoints': m20261121T0000,
  '2026-11-21T01-00-master-references': m20261121T0100,
  '2026-11-21T02-00-record-streams': m20261121T0200,
  '2026-11-21T03-00-custom-field-definitions': m20261121T0300,
  '2026-11-21T04-00-masters-and-journal': m20261121T0400,
  '2026-11-21T05-00-purchases-and-sales': m20261121T0500,
  '2026-11-21T06-00-cash-records': m20261121T0600,
  '2026-11-21T07-00-activity-log': m20261121T0700,
  '2026-11-21T08-00-notifications': m20261121T0800,
  '2026-11-21T09-00-projection-rebuilds': m20261121T0900,
  '2026-11-21T10-00-account-totals': m20261121T1000,
  '2026-11-21T11-00-list-order-indexes': m20261121T1100,
  '2026-11-21T12-00-cash-record-nominal-inr': m20261121T1200,
  '2026-11-21T13-00-account-days-nominal': m20261121T1300,
  '2026-11-21T14-00-activity-log-by-record': m20261121T1400,
  '2026-11-24T00-00-wide-account-sums': m20261124T0000,
  '2026-11-25T00-00-activity-log-returns': m20261125T0000,
  '2026-11-25T01-00-cash-record-nominal-inr-standing': m20261125T0100,
  '2026-11-26T00-00-journal-words-and-corrections': m20261126T0000,
  '2026-11-28T00-00-journal-line-words': m20261128T0000,
  '2026-11-28T01-00-book-close-figures': m20261128T0100,
  '2026-11-28T02-00-record-adjusts': m20261128T0200,
  '2026-11-29T00-00-account-days-opening': m20261129T0000,
};

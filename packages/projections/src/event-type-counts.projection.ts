import { sql } from 'kysely';
import type { Projection } from './projection.ts';

/** How many events of each type the log holds: an operator's view of what the books contain. */
export const eventTypeCounts: Projection = {
  name: 'event_type_counts',
  tables: ['event_type_counts'],
  async apply(tx, events) {
    const byType = new Map<string, { count: bigint; last: bigint }>();
    for (const event of events) {
      const entry = byType.get(event.type) ?? { count: 0n, last: 0n };
      entry.count += 1n;
      entry.last = event.position;
      byType.set(event.type, entry);
    }
    if (byType.size === 0) return;
    await tx
      .insertInto('event_type_counts')
      .values([...byType].map(([type, { count, last }]) => ({ type, count, last_position: last })))
      .onConflict((oc) =>
        oc.column('type').doUpdateSet({
          count: sql`event_type_counts.count + excluded.count`,
          last_position: sql`excluded.last_position`,
        }),
      )
      .execute();
  },
};

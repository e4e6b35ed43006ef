import type { RecordedEvent } from '@bahi/event-store';
import type { Projection } from './projection.ts';

/** Masters that refer to other masters, by their city. Transactions add their references later. */
const CITY_REFERRERS: Record<string, string> = { Funder: 'Funder', Agent: 'Agent', Collector: 'Collector' };

function kindOf(type: string): { kind: string; action: 'upsert' | 'delete' } | undefined {
  const match = /^(Funder|Agent|Collector)(Created|Updated|Deleted)$/.exec(type);
  if (!match) return undefined;
  return { kind: CITY_REFERRERS[match[1]!]!, action: match[2] === 'Deleted' ? 'delete' : 'upsert' };
}

/**
 * Which records refer to which masters: the command side reads it to refuse deleting a
 * master that is still referred to, naming what refers to it.
 */
export const masterReferences: Projection = {
  name: 'master_references',
  async apply(tx, events: readonly RecordedEvent[]) {
    for (const event of events) {
      const what = kindOf(event.type);
      if (!what) continue;
      const data = event.data as { id: string; city_id?: string };
      await tx.deleteFrom('master_references').where('source_id', '=', data.id).execute();
      if (what.action === 'upsert' && data.city_id) {
        await tx
          .insertInto('master_references')
          .values({
            source_kind: what.kind,
            source_id: data.id,
            target_kind: 'City',
            target_id: data.city_id,
          })
          .execute();
      }
    }
  },
};

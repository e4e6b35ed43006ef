import { randomUUID } from 'node:crypto';
import type { EventStore } from '@bahi/event-store';

/**
 * A godown no read model can hold (a joining date in year 0), appended straight to the store
 * as an older release or a bug could have written it: the masters projection stops at it.
 * Answers its position in the log.
 */
export async function plantUnprojectableGodown(eventStore: EventStore, name: string): Promise<string> {
  const id = randomUUID();
  const result = await eventStore.append(
    `godown-${id}`,
    [
      {
        type: 'GodownCreated',
        data: {
          id,
          name,
          joining_date: '0000-01-01',
          address: null,
          narration: null,
          phone: null,
          opening_balance: '0.00',
        },
        metadata: { schemaVersion: 1 },
      },
    ],
    'no_stream',
  );
  return result.position.toString();
}

import { type EventType, eventSchemas, isEventType, parseEvent } from '@bahi/contracts';
import type { EventStore } from '@bahi/event-store';
import { expect } from 'vitest';

/** Every event in the log has a registered type, passes its schema and names its schema version. */
export async function expectOnlyRegisteredEvents(store: EventStore): Promise<number> {
  const events = await store.readAll(0n, 1_000_000);
  for (const event of events) {
    expect(isEventType(event.type), event.type).toBe(true);
    expect(() => parseEvent(event.type, event.data), event.type).not.toThrow();
    expect(event.metadata.schemaVersion, event.type).toBe(eventSchemas[event.type as EventType].version);
  }
  return new Set(events.map((e) => e.type)).size;
}

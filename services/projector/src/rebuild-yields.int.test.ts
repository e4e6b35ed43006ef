import { seedBusiness } from '@bahi/command';
import { type CommandTestApp, commandTestApp } from '@bahi/command/testing';
import type { RecordedEvent } from '@bahi/event-store';
import { journal, type Projection, rebuildProjections } from '@bahi/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue #27.7: on PGlite (one connection for everything) a rebuild goes in short turns, so a
 * read asked for while it runs is answered before it has applied the whole log, not after.
 */
describe('a rebuild on PGlite shares the one connection with live traffic [pglite]', () => {
  let t: CommandTestApp;
  beforeAll(async () => {
    t = await commandTestApp();
    await seedBusiness(
      async (method, path, body) => {
        const res = await t.call(method, path, t.adminToken, body);
        return { status: res.statusCode, body: res.json() };
      },
      { days: 30, until: '2026-11-20' },
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a read issued during its first transaction is answered before the last event is applied', async () => {
    const total = Number(await t.eventStore.headPosition());
    const applied: number[] = [];
    let read: Promise<number> | undefined;
    // Applies nothing; tells how many events each transaction of the rebuild brought it and,
    // in the first, sends a read through the same read database the API answers from.
    const watcher: Projection = {
      name: 'watcher',
      tables: [],
      async apply(_tx, events: readonly RecordedEvent[]) {
        applied.push(events.length);
        read ??= t.deps.readDb
          .selectFrom('parties')
          .select('id')
          .limit(1)
          .execute()
          .then(() => applied.reduce((sum, n) => sum + n, 0));
      },
    };
    const report = await rebuildProjections({
      eventStore: t.eventStore,
      readDb: t.deps.readDb,
      projections: [journal, watcher],
      swap: false,
      liveWaitMs: 0,
    });
    expect(report.events).toBe(total);
    expect(applied.reduce((sum, n) => sum + n, 0)).toBe(total);
    expect(applied.length).toBeGreaterThan(1);
    // Answered while most of the log was still to be applied, not once the rebuild was through.
    const appliedWhenAnswered = await read!;
    expect(appliedWhenAnswered).toBeLessThan(total);
    expect(report.comparisons.find((c) => c.projection === 'journal')?.identical).toBe(true);
  }, 120_000);
});

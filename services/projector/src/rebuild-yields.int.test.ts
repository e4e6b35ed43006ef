import { seedBusiness } from '@bahi/command';
import { type CommandTestApp, commandTestApp } from '@bahi/command/testing';
import type { RecordedEvent } from '@bahi/event-store';
import { journal, type Projection, rebuildProjections } from '@bahi/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue #27.7: on PGlite (one connection for everything) a rebuild goes in short turns, one at a
 * time, so a read asked for while it runs waits for one turn, not for a transaction of every
 * projection queued ahead of it.
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

  it('a read issued during one of its transactions is answered next, before any other transaction of the rebuild', async () => {
    const total = Number(await t.eventStore.headPosition());
    const applied: number[] = [];
    let journalTransactions = 0;
    let read: Promise<{ issued: number; answered: number; applied: number }> | undefined;
    const countedJournal: Projection = {
      ...journal,
      async apply(tx, events) {
        await journal.apply(tx, events);
        journalTransactions++;
      },
    };
    // Applies nothing; tells how many events each transaction of the rebuild brought it and,
    // in the first, sends a read through the same read database the API answers from.
    const watcher: Projection = {
      name: 'watcher',
      tables: [],
      async apply(_tx, events: readonly RecordedEvent[]) {
        applied.push(events.length);
        if (read) return;
        const issued = journalTransactions;
        read = t.deps.readDb
          .selectFrom('parties')
          .select('id')
          .limit(1)
          .execute()
          .then(() => ({
            issued,
            answered: journalTransactions,
            applied: applied.reduce((sum, n) => sum + n, 0),
          }));
      },
    };
    const report = await rebuildProjections({
      eventStore: t.eventStore,
      readDb: t.deps.readDb,
      projections: [watcher, countedJournal],
      swap: false,
      liveWaitMs: 0,
      batchSize: 100, // several batches, also where each is one transaction a projection
    });
    expect(report.events).toBe(total);
    expect(applied.reduce((sum, n) => sum + n, 0)).toBe(total);
    expect(applied.length).toBeGreaterThan(1);
    // Answered as soon as the transaction it was sent in was through: no other transaction of
    // the rebuild (the journal's) went before it, and most of the log was still to come.
    const { issued, answered, applied: appliedWhenAnswered } = await read!;
    expect(answered).toBe(issued);
    expect(appliedWhenAnswered).toBeLessThan(total);
    expect(report.comparisons.find((c) => c.projection === 'journal')?.identical).toBe(true);
  }, 120_000);
});

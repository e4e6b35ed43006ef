import { randomUUID } from 'node:crypto';
import {
  expenseInput,
  incomeInput,
  paymentInput,
  purchaseInput,
  purchaseReturnInput,
  salaryPaymentInput,
  saleInput,
  saleReturnInput,
  transferInput,
} from '@bahi/contracts';
import { DomainError } from '@bahi/domain';
import type { EventStore, RecordedEvent } from '@bahi/event-store';
import { customFieldDefinitions, recordStreams, startProjector } from '@bahi/projections';
import { openReadDb, ProjectionBehindError } from '@bahi/read-db';
import { appendBatchToLog, type LogEvent } from '@bahi/server-kit';
import type { SqlClient } from '@bahi/sql-client';
import type { CommandDeps } from './deps.ts';
import * as cash from './handlers/cash.ts';
import type { HandlerContext } from './handlers/context.ts';
import * as masters from './handlers/masters.ts';
import * as purchases from './handlers/purchases.ts';
import * as sales from './handlers/sales.ts';
import { MemoryEventStore } from './memory-event-store.ts';
import { KINDS } from './routes/masters.routes.ts';
import { type Call, seedScale } from './seed.ts';

/**
 * The seed's business (seed.ts) without the HTTP round trip per record (issue #28): each write
 * goes to the same command handler its route calls, with the body parsed by the route's own
 * schema, so the same deciders decide on the same facts and refuse the same writes. They decide
 * against an event store in memory (no database round trip per look-up or append); the two read
 * models the handlers consult (where a record's stream is, the custom field definitions) are
 * projected from it into `lookups`, a scratch database. The events are then copied, in the
 * order they were decided, into the real log through the one door (appendToLog parses each),
 * many streams' appends to a transaction. The read models are the projections' to build from
 * the log afterwards (a rebuild, or the live projector catching up).
 *
 * Not for users' writes: no authentication, no licence gate, no write scope (locks, idempotency):
 * one seeding process owns the memory store. seed-fast.int.test.ts seeds a small business both
 * ways and checks that every read model comes out the same.
 */

type Route = (ctx: HandlerContext, body: unknown) => Promise<{ id: string; position: bigint }>;

/** The seed's routes (seed.ts writes nothing else), each as its route in routes/ runs it. */
const ROUTES: Record<string, Route> = {
  ...Object.fromEntries(
    Object.entries(KINDS).map(([path, route]): [string, Route] => [
      `/api/masters/${path}`,
      (ctx, body) => masters.createMaster(ctx, route.kind, route.input.parse(body)),
    ]),
  ),
  '/api/transactions/purchases': (ctx, body) => purchases.recordPurchase(ctx, purchaseInput.parse(body)),
  '/api/transactions/purchase-returns': (ctx, body) =>
    purchases.returnPurchase(ctx, purchaseReturnInput.parse(body)),
  '/api/transactions/sales': (ctx, body) => sales.recordSale(ctx, saleInput.parse(body)),
  '/api/transactions/sale-returns': (ctx, body) => sales.returnSale(ctx, saleReturnInput.parse(body)),
  '/api/transactions/payments': (ctx, body) => cash.recordPayment(ctx, paymentInput.parse(body)),
  '/api/transactions/salary-payments': (ctx, body) => cash.paySalary(ctx, salaryPaymentInput.parse(body)),
  '/api/transactions/transfers': (ctx, body) => cash.recordTransfer(ctx, transferInput.parse(body)),
  '/api/transactions/expenses': (ctx, body) => cash.recordCashEntry(ctx, 'Expense', expenseInput.parse(body)),
  '/api/transactions/incomes': (ctx, body) => cash.recordCashEntry(ctx, 'Income', incomeInput.parse(body)),
};

export interface FastSeedOptions {
  /** The real log, on `sql`: the seed's events are appended after what it holds (the first admin). */
  eventStore: EventStore;
  sql: SqlClient;
  /** A scratch database for the look-ups' read models while deciding (emptied by its migrations, never read after). */
  lookups: SqlClient;
  /** Who the events say asked (the first admin, as the command path's seed signs in). */
  userId: string | null;
  scale: { days: number; units: number; intensity: number };
  until: string;
  onProgress?: (writes: number) => void;
  /** Events appended to the real log per transaction (default 500: larger batches measured slower). */
  batchSize?: number;
}

export async function fastSeedScale(options: FastSeedOptions): Promise<{ writes: number; events: number }> {
  const memory = new MemoryEventStore();
  const readDb = await openReadDb(options.lookups);
  const projector = startProjector({
    eventStore: memory,
    readDb,
    projections: [recordStreams, customFieldDefinitions],
    flushAfterMs: 20,
    rebuildPollMs: 0,
  });
  // The handlers these routes reach read only the event store and the read db.
  const deps = { eventStore: memory, readDb, sql: options.lookups } as Partial<CommandDeps> as CommandDeps;
  const call: Call = async (_method, path, body) => {
    const route = ROUTES[path];
    if (!route) throw new Error(`fast seed: no route for ${path}`);
    const ctx: HandlerContext = {
      deps,
      meta: { userId: options.userId, correlationId: randomUUID(), causationId: null },
      seen: undefined,
    };
    try {
      const { id } = await route(ctx, body);
      return { status: 201, body: { id } };
    } catch (error) {
      // As the routes answer: 503 while a read model catches up (the seed tries again).
      if (error instanceof ProjectionBehindError) return { status: 503, body: { message: error.message } };
      if (error instanceof DomainError) return { status: 422, body: { message: error.message } };
      throw error;
    }
  };
  let writes: number;
  try {
    ({ writes } = await seedScale(call, options.scale, options.until, options.onProgress));
  } finally {
    await projector.stop();
  }
  await copyToLog(options.eventStore, memory.events(), options.batchSize ?? 500);
  return { writes, events: memory.events().length };
}

/**
 * The memory store's events into the real log, in their order: each run of one stream's
 * consecutive events is one append at the version the memory store gave it, a batch of runs
 * one statement (appendBatchToLog) in one transaction.
 */
async function copyToLog(
  store: EventStore,
  events: readonly RecordedEvent[],
  batchSize: number,
): Promise<void> {
  for (let start = 0; start < events.length; start += batchSize) {
    const runs: RecordedEvent[][] = [];
    for (const event of events.slice(start, start + batchSize)) {
      const run = runs.at(-1);
      if (run && run[0]!.streamId === event.streamId) run.push(event);
      else runs.push([event]);
    }
    await appendBatchToLog(
      store,
      runs.map((run) => ({
        streamId: run[0]!.streamId,
        // Typed by the contracts' union only once parsed: the door parses each before it is stored.
        events: run.map(
          (e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata }) as unknown as LogEvent,
        ),
        expected: run[0]!.streamVersion === 0n ? 'no_stream' : run[0]!.streamVersion - 1n,
      })),
    );
  }
}

import { allProjections, rebuildProjections } from '@bahi/projections';
import { waitForProjections } from '@bahi/read-db';
import { createPgSqlClient, type SqlClient } from '@bahi/sql-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';
import { type Call, seedScale } from './seed.ts';
import { fastSeedScale } from './seed-fast.ts';
import { type CommandTestApp, commandTestApp } from './testing/command-app.ts';
import { expectOnlyRegisteredEvents } from './testing/registered-events.ts';

const url = process.env.DATABASE_URL;

/** One unit (its writes in one order), a few hundred records: every kind of write the seed makes. */
const SCALE = { days: 40, units: 1, intensity: 1 };
const UNTIL = '2026-11-20';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

/**
 * The two seeds give their records random ids: each id becomes its order of first appearance in
 * the log's event data (the same write in both logs, when they agree), and wall-clock times go.
 */
async function labeller(t: CommandTestApp) {
  const labels = new Map<string, string>();
  for (const event of await t.eventStore.readAll(0n, 1_000_000))
    for (const id of JSON.stringify(event.data).match(UUID) ?? [])
      if (!labels.has(id)) labels.set(id, `id${labels.size}`);
  const label = (value: unknown): unknown => {
    if (value instanceof Date) return '<time>';
    if (typeof value === 'string')
      return TIME.test(value) ? '<time>' : value.replace(UUID, (id) => labels.get(id) ?? '<unknown id>');
    if (Array.isArray(value)) return value.map(label);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, label(v)]));
    return value;
  };
  return label;
}

/** Every read model's rows, labelled and sorted: what the two seeds must agree on. */
async function readModels(t: CommandTestApp, sql: SqlClient) {
  const label = await labeller(t);
  const tables: Record<string, string[]> = {};
  for (const projection of allProjections)
    for (const table of projection.tables) {
      const { rows } = await sql.query<{ row: unknown }>(`SELECT row_to_json(t) AS row FROM ${table} t`, []);
      tables[table] = rows.map((r) => JSON.stringify(label(r.row))).sort();
    }
  return tables;
}

/** The log, event by event: type, stream and data, labelled. */
async function theLog(t: CommandTestApp) {
  const label = await labeller(t);
  return (await t.eventStore.readAll(0n, 1_000_000)).map((e) =>
    label({ type: e.type, stream: e.streamId, version: e.streamVersion.toString(), data: e.data }),
  );
}

/**
 * The fast seed (seed-fast.ts) against the seed through the command routes, the path it
 * stands in for in the read benchmark: the same business seeded both ways into two
 * databases gives the same log and the same read models, table by table.
 */
describe.skipIf(!url)('the fast seed', () => {
  const dbs: Array<Awaited<ReturnType<typeof withTestDatabase>>> = [];
  const clients: SqlClient[] = [];
  let viaCommands: CommandTestApp;
  let fast: CommandTestApp;
  let fastWrites = 0;
  let commandWrites = 0;

  const client = async (prefix: string) => {
    const db = await withTestDatabase(prefix);
    dbs.push(db);
    const sql = createPgSqlClient({ connectionString: db.url, max: 8 });
    clients.push(sql);
    return sql;
  };

  beforeAll(async () => {
    // Through the command routes, the live projector keeping every read model.
    const sqlA = await client('seed_commands');
    viaCommands = await commandTestApp({ sql: sqlA });
    const call: Call = async (method, path, body) => {
      const res = await viaCommands.call(method, path, viaCommands.adminToken, body);
      return { status: res.statusCode, body: res.json() };
    };
    ({ writes: commandWrites } = await seedScale(call, SCALE, UNTIL));
    await waitForProjections(
      viaCommands.deps.readDb,
      allProjections.map((p) => p.name),
      await viaCommands.eventStore.headPosition(),
      60_000,
    );

    // The fast seed, then the read models rebuilt from its log, as the read benchmark does.
    const sqlB = await client('seed_fast');
    fast = await commandTestApp({ sql: sqlB, projector: false });
    const admin = (await fast.eventStore.readAll(0n, 100)).find((e) => e.type === 'UserCreated');
    ({ writes: fastWrites } = await fastSeedScale({
      eventStore: fast.eventStore,
      sql: sqlB,
      lookups: await client('seed_fast_lookups'),
      userId: (admin?.data as { id: string }).id,
      scale: SCALE,
      until: UNTIL,
      batchSize: 50, // several batches even at this scale
    }));
    await rebuildProjections({ eventStore: fast.eventStore, readDb: fast.deps.readDb, liveWaitMs: 0 });
  }, 300_000);

  afterAll(async () => {
    await viaCommands?.close();
    await fast?.close();
    for (const sql of clients) await sql.close().catch(() => {});
    for (const db of dbs) await db.drop();
  });

  it('writes the same records, and every event it stores passes its schema', async () => {
    expect(commandWrites).toBeGreaterThan(200);
    expect(fastWrites).toBe(commandWrites);
    await expectOnlyRegisteredEvents(fast.eventStore);
  });

  it('leaves the same log, event by event', async () => {
    const [expected, actual] = [await theLog(viaCommands), await theLog(fast)];
    const types = new Set(actual.map((e) => (e as { type: string }).type));
    // Every kind of write the seed makes is in it.
    for (const type of [
      'PurchaseRecorded',
      'PurchaseReturned',
      'SaleRecorded',
      'SaleReturned',
      'PaymentRecorded',
      'SalaryPaid',
      'TransferRecorded',
      'ExpenseRecorded',
      'IncomeRecorded',
      'CustomFieldDefinitionCreated',
    ])
      expect(types.has(type), type).toBe(true);
    expect(actual).toEqual(expected);
  });

  it('builds the same read models, table by table', async () => {
    const expected = await readModels(viaCommands, clients[0]!);
    const actual = await readModels(fast, clients[1]!);
    expect(Object.keys(actual).length).toBeGreaterThan(8);
    expect(expected.journal!.length).toBeGreaterThan(500);
    for (const table of Object.keys(expected)) expect(actual[table], table).toEqual(expected[table]);
  });
});

import { seedBusiness } from '@bahi/command';
import { type CommandTestApp, commandTestApp } from '@bahi/command/testing';
import {
  allProjections,
  journal,
  type Projection,
  rebuildProjections,
  requestRebuild,
} from '@bahi/projections';
import { readCheckpoints } from '@bahi/read-db';
import { createPgSqlClient } from '@bahi/sql-client';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestDatabase } from '../../../test/postgres.ts';

const describeOnPostgres = process.env.DATABASE_URL ? describe : describe.skip;
if (!process.env.DATABASE_URL) console.warn('rebuild.int.test: DATABASE_URL is not set; skipped');

describeOnPostgres('rebuilding read models from the log [postgres]', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  let t: CommandTestApp;

  const readDb = () => t.deps.readDb;
  const caughtUp = async () => {
    const head = await t.eventStore.headPosition();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const checkpoints = await readCheckpoints(readDb());
      if (allProjections.every((p) => checkpoints.find((c) => c.name === p.name)?.position === head))
        return head;
      if (Date.now() > deadline) throw new Error('projections did not catch up');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const writeExpense = (i: number) =>
    t.call('POST', '/api/transactions/expenses', t.adminToken, {
      amount: `${100 + i}.25`,
      expense_date: '2026-11-01',
      category: 'Rent',
      remarks: `during the rebuild ${i}`,
      city_id: collector.city_id,
      paid_from_entity_type: 'Collector',
      paid_from_entity_id: collector.id,
    });
  let collector: { id: string; city_id: string | null } = { id: '', city_id: '' };
  let productId = '';

  beforeAll(async () => {
    db = await withTestDatabase('rebuild');
    t = await commandTestApp({ sql: createPgSqlClient({ connectionString: db.url }) });
    await seedBusiness(
      async (method, path, body) => {
        const res = await t.call(method, path, t.adminToken, body);
        return { status: res.statusCode, body: res.json() };
      },
      { days: 12, until: '2026-11-20' },
    );
    collector = await readDb()
      .selectFrom('parties')
      .select(['id', 'city_id'])
      .where('kind', '=', 'Collector')
      .orderBy('name')
      .executeTakeFirstOrThrow();
    productId = (await readDb().selectFrom('products').select('id').orderBy('name').executeTakeFirstOrThrow())
      .id;
    await caughtUp();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('a rebuild of every projection from the log is identical to the live read models, table by table', async () => {
    const head = await caughtUp();
    const report = await rebuildProjections({ eventStore: t.eventStore, readDb: readDb(), swap: false });
    expect(report.identical).toBe(true);
    expect(report.projections).toEqual(allProjections.map((p) => p.name));
    expect(report.comparisons.map((c) => c.livePosition)).toEqual(allProjections.map(() => head.toString()));
    const tables = report.comparisons.flatMap((c) => c.tables);
    expect(tables.map((x) => x.table).sort()).toEqual(allProjections.flatMap((p) => p.tables).sort());
    for (const table of tables) {
      expect(table.shadowChecksum, table.table).toBe(table.liveChecksum);
      expect(table.shadowRows, table.table).toBe(table.liveRows);
    }
    const journal = tables.find((x) => x.table === 'journal')!;
    expect(journal.liveRows).toBeGreaterThan(200);
    // Nothing of the shadow is left behind, and the run is on record.
    const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM pg_namespace
      WHERE nspname LIKE 'rebuild_%' OR nspname LIKE 'retired_%'`.execute(readDb());
    expect(rows[0]!.n).toBe('0');
    const recorded = await readDb()
      .selectFrom('projection_rebuilds')
      .selectAll()
      .where('id', '=', report.id)
      .executeTakeFirstOrThrow();
    expect(recorded).toMatchObject({ status: 'done', position: head.toString() });
    expect((recorded.report as { identical: boolean }).identical).toBe(true);
  });

  it('swaps in tables with every index the migrations give them, though it built some only at the end', async () => {
    await caughtUp();
    const indexes = async () =>
      (
        await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes
          WHERE schemaname = current_schema() ORDER BY indexname`.execute(readDb())
      ).rows.map((r) => r.indexdef);
    const before = await indexes();
    expect(before).toContain(
      'CREATE INDEX journal_account_date ON public.journal USING btree (account, business_date, "position")',
    );
    const report = await rebuildProjections({
      eventStore: t.eventStore,
      readDb: readDb(),
      names: ['journal', 'purchases_and_sales', 'cash_records'],
    });
    expect(report.identical).toBe(true);
    expect(report.comparisons.every((c) => c.swapped)).toBe(true);
    expect(await indexes()).toEqual(before);
  });

  it('swaps nothing when one projection cannot replay the log, though the others could', async () => {
    await caughtUp();
    const oid = async (table: string) =>
      (await sql<{ oid: string }>`SELECT to_regclass(${table})::oid::text AS oid`.execute(readDb())).rows[0]!
        .oid;
    const journalBefore = await oid('journal');
    const broken: Projection = {
      name: 'cash_records',
      tables: ['cash_records'],
      async apply(_tx, events) {
        if (events.some((e) => e.type === 'ExpenseRecorded')) throw new Error('simulated failure');
      },
    };
    await expect(
      rebuildProjections({
        eventStore: t.eventStore,
        readDb: readDb(),
        projections: [journal, broken],
        batchSize: 50,
      }),
    ).rejects.toThrow(/cash_records cannot apply the events after position \d+: simulated failure/);
    expect(await oid('journal')).toBe(journalBefore);
    const last = await readDb()
      .selectFrom('projection_rebuilds')
      .select(['status', 'error'])
      .orderBy('requested_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(last).toMatchObject({ status: 'failed' });
    const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM pg_namespace
      WHERE nspname LIKE 'rebuild_%' OR nspname LIKE 'retired_%'`.execute(readDb());
    expect(rows[0]!.n).toBe('0');
  });

  it("keeps each cash record's nominal INR as the journal has it (what migrations 12 and 2026-11-25T01 filled in)", async () => {
    await caughtUp();
    const { rows } = await sql<{ kind: string; rows: string; differing: string; nonzero: string }>`
      SELECT r.kind, count(*)::text AS rows,
             count(*) FILTER (WHERE r.nominal_inr <> coalesce((
               SELECT abs(sum(j.inr)) FROM journal j
                WHERE j.record_id = r.id AND j.event_type NOT LIKE '%Deleted'
                  AND (j.account LIKE 'nominal:Expense:%' OR j.account LIKE 'nominal:Income:%' OR j.account = 'nominal:Salary')), 0))::text AS differing,
             count(*) FILTER (WHERE r.nominal_inr <> 0)::text AS nonzero
        FROM cash_records r WHERE r.kind IN ('Expense', 'Income', 'SalaryPayment') GROUP BY r.kind ORDER BY r.kind`.execute(
      readDb(),
    );
    // Twelve days of the seed hold expenses and incomes (salaries are paid at a month's end).
    expect(rows.map((r) => r.kind)).toEqual(expect.arrayContaining(['Expense', 'Income']));
    for (const r of rows) {
      expect(r.differing).toBe('0');
      expect(Number(r.nonzero)).toBeGreaterThan(0);
    }
  });

  it('finds damaged live rows (counts, checksums, balances), then repairs them by a swap while writes go on', async () => {
    await caughtUp();
    const victim = await readDb()
      .selectFrom('journal')
      .select(['position', 'line', 'account', 'currency'])
      .where('amount', '>', '0')
      .orderBy('position')
      .executeTakeFirstOrThrow();
    await readDb()
      .updateTable('journal')
      .set({ amount: sql`amount + 1` })
      .where('position', '=', victim.position)
      .where('line', '=', victim.line)
      .execute();
    await readDb().deleteFrom('products').where('id', '=', productId).execute();

    const compared = await rebuildProjections({
      eventStore: t.eventStore,
      readDb: readDb(),
      names: ['journal', 'masters'],
      swap: false,
    });
    expect(compared.identical).toBe(false);
    const byTable = Object.fromEntries(
      compared.comparisons.flatMap((c) => c.tables).map((x) => [x.table, x]),
    );
    expect(byTable.journal).toMatchObject({ identical: false });
    expect(byTable.journal!.liveRows).toBe(byTable.journal!.shadowRows);
    expect(byTable.products).toMatchObject({ identical: false });
    expect(byTable.products!.liveRows).toBe(byTable.products!.shadowRows - 1);
    expect(byTable.cities).toMatchObject({ identical: true });
    const journalComparison = compared.comparisons.find((c) => c.projection === 'journal')!;
    expect(journalComparison.balanceDifferences).toHaveLength(1);
    const [difference] = journalComparison.balanceDifferences;
    expect(difference).toMatchObject({ account: victim.account, currency: victim.currency });
    expect(Number(difference!.liveAmount) - Number(difference!.shadowAmount)).toBe(1);

    // Swap, while a writer keeps recording and the live projector keeps applying.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const res = await writeExpense(written);
        expect(res.statusCode).toBe(201);
        written++;
      }
    })();
    const repaired = await rebuildProjections({
      eventStore: t.eventStore,
      readDb: readDb(),
      names: ['journal', 'masters'],
      batchSize: 100,
    });
    writing = false;
    await writer;
    expect(written).toBeGreaterThan(0);
    expect(repaired.comparisons.every((c) => c.swapped)).toBe(true);
    expect(repaired.comparisons.every((c) => c.livePosition === c.shadowPosition)).toBe(true);
    expect(
      await readDb().selectFrom('products').select('id').where('id', '=', productId).executeTakeFirst(),
    ).toBeDefined();

    // After the swap the live projector goes on in the new tables: every expense is there once,
    // and a fresh comparison finds nothing to report.
    await caughtUp();
    const expenses = await readDb()
      .selectFrom('journal')
      .select(sql<string>`count(distinct record_id)::text`.as('n'))
      .where('event_type', '=', 'ExpenseRecorded')
      .where('business_date', '=', '2026-11-01')
      .executeTakeFirstOrThrow();
    expect(Number(expenses.n)).toBeGreaterThanOrEqual(written);
    const after = await rebuildProjections({ eventStore: t.eventStore, readDb: readDb(), swap: false });
    expect(after.identical).toBe(true);
  });

  it('a swap puts a projection stopped by a failure back to work, and only one rebuild runs at a time', async () => {
    await caughtUp();
    await readDb()
      .updateTable('projection_checkpoints')
      .set({ status: 'failed', error: 'cannot apply: simulated' })
      .where('name', '=', 'cash_records')
      .execute();
    const written = await writeExpense(999);
    expect(written.statusCode).toBe(201);

    const first = await requestRebuild(readDb(), { names: ['cash_records'], requestedBy: 'test' });
    await expect(requestRebuild(readDb(), { requestedBy: 'test' })).rejects.toThrow(
      /already asked for or running/,
    );
    await expect(
      rebuildProjections({ eventStore: t.eventStore, readDb: readDb(), names: ['cash_records'] }),
    ).rejects.toThrow(/already asked for or running/);
    await expect(requestRebuild(readDb(), { names: ['nope'], requestedBy: 'test' })).rejects.toThrow(
      /Unknown projection nope/,
    );

    // The live projector takes the request and runs it.
    let row = await readDb()
      .selectFrom('projection_rebuilds')
      .selectAll()
      .where('id', '=', first)
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 300 && (row.status === 'requested' || row.status === 'running'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      row = await readDb()
        .selectFrom('projection_rebuilds')
        .selectAll()
        .where('id', '=', first)
        .executeTakeFirstOrThrow();
    }
    expect(row.status).toBe('done');
    const report = row.report as { comparisons: Array<{ projection: string; swapped: boolean }> };
    expect(report.comparisons[0]).toMatchObject({ projection: 'cash_records', swapped: true });
    const checkpoint = (await readCheckpoints(readDb())).find((c) => c.name === 'cash_records')!;
    expect(checkpoint).toMatchObject({ status: 'running', error: null });
    const expense = await readDb()
      .selectFrom('cash_records')
      .select('id')
      .where('id', '=', written.json().id)
      .executeTakeFirst();
    expect(expense).toBeDefined();
  });
});

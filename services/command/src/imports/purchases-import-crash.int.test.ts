// Issue #31: a purchases import's commit is all rows or none. The command service, on Postgres,
// is killed (SIGKILL) while it is inside the commit's transaction, appending a 6,000-row file of
// godown and direct purchases; after a restart the log and the read models (purchases, stock)
// hold none of the file's purchases (or, had the commit finished first, all of them), never a
// part; committing it again then records every row once, never twice.
import { afterAll, describe, expect, it } from 'vitest';
import { call, json } from '../../../../test/http.ts';
import { type CrashRig, openCrashRig } from '../../../../test/import-crash-rig.ts';
import { waitFor } from '../../../../test/processes.ts';

const ROWS = 6_000;

describe.skipIf(!process.env.DATABASE_URL)('a purchases import killed during its commit', () => {
  let rig: CrashRig | undefined;
  afterAll(async () => {
    await rig?.close();
  });

  it('leaves all purchases or none in the books, and the file can be committed once after the restart', async () => {
    rig = await openCrashRig();
    const { client } = rig;
    const up = rig.up;
    const count = async (query: string, params: unknown[] = []) =>
      (await client.query<{ n: string | null }>(query, params)).rows[0]!.n ?? '0';
    const imported = async () =>
      Number(
        await count(
          "SELECT count(*)::text AS n FROM es.events WHERE type = 'PurchaseRecorded' AND metadata->>'importId' IS NOT NULL",
        ),
      );
    /** The read models once the projector has caught up with the log: purchases listed, stock held. */
    const books = async (godown: string, product: string) => {
      await waitFor(
        'the projector to catch up',
        async () => {
          const behind = await count(
            `SELECT count(*)::text AS n FROM projection_checkpoints
              WHERE name IN ('purchases_and_sales', 'journal')
                AND position::bigint < (SELECT coalesce(max(global_position), 0) FROM es.events)`,
          );
          return behind === '0' ? true : undefined;
        },
        120_000,
      );
      return {
        purchases: Number(await count('SELECT count(*)::text AS n FROM purchases WHERE deleted = false')),
        stock: await count(
          'SELECT sum(quantity)::numeric(20,4)::text AS n FROM account_totals WHERE account = $1',
          [`stock:${godown}:${product}`],
        ),
      };
    };

    let { port, token } = await up();
    const made: Record<string, string> = {};
    for (const [path, key, body] of <Array<[string, string, Record<string, unknown>]>>[
      ['cities', 'city', { name: 'Kabul', currency_name: 'AFN', rate: '1.25' }],
      ['products', 'product', { name: 'Cumin' }],
      ['godowns', 'godown', { name: 'Bhiwandi' }],
    ]) {
      const res = await call(port, 'POST', `/api/masters/${path}`, { token, body });
      expect(res.status, res.body).toBe(201);
      made[key] = json(res).id as string;
    }
    for (const [path, name] of [
      ['funders', 'Haji Rahim'],
      ['agents', 'Bilal'],
    ]) {
      const res = await call(port, 'POST', `/api/masters/${path}`, {
        token,
        body: { name, city_id: made.city },
      });
      expect(res.status, res.body).toBe(201);
    }
    // Odd rows into the godown (3 appends of 1,000 on its stream), even rows direct (a stream each).
    const lines = Array.from({ length: ROWS }, (_, i) =>
      i % 2 === 0
        ? `Godown,2026-04-01,Kabul,Haji Rahim,Cumin,Bhiwandi,,10.5,2`
        : `Direct,2026-04-01,Kabul,Haji Rahim,Cumin,,Bilal,10.5,2`,
    );
    const csv = `Type,Purchase Date,City,Funder,Product,Godown,Agent,Rate,Quantity\n${lines.join('\n')}\n`;
    const upload = await fetch(
      `http://127.0.0.1:${port}/api/imports?kind=purchases&file_name=purchases.csv`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        body: csv,
      },
    );
    expect(upload.status).toBe(201);
    const preview = (await upload.json()) as { id: string; status: string };
    expect(preview.status).toBe('valid');
    const full = { purchases: ROWS, stock: `${ROWS}.0000` }; // ROWS / 2 godown rows of 2 each

    await rig.killDuringCommit(port, token, preview.id);
    const afterKill = await imported();
    console.info(
      `purchases import crash: ${afterKill} of ${ROWS} imported purchases in the log after the kill`,
    );
    expect([0, ROWS]).toContain(afterKill);
    const marker = Number(
      await count("SELECT count(*)::text AS n FROM es.events WHERE type = 'ImportCommitted'"),
    );
    expect(marker).toBe(afterKill === 0 ? 0 : 1);
    expect(await books(made.godown!, made.product!)).toEqual(
      afterKill === 0 ? { purchases: 0, stock: '0' } : full,
    );

    ({ port, token } = await up());
    const again = await call(port, 'POST', `/api/imports/${preview.id}/commit`, { token });
    if (afterKill === 0) {
      expect(again.status, again.body).toBe(200);
      expect(json(again)).toMatchObject({ records: ROWS, events: ROWS + 1 });
    } else {
      expect(again.status).toBe(409);
    }
    expect(await imported()).toBe(ROWS);
    const twice = await call(port, 'POST', `/api/imports/${preview.id}/commit`, { token });
    expect(twice.status).toBe(409);
    expect(await imported()).toBe(ROWS);
    expect(await books(made.godown!, made.product!)).toEqual(full);
  }, 300_000);
});

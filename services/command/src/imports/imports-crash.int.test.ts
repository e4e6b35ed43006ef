// Issue #31: an import's commit is all rows or none. The command service, on Postgres, is killed
// (SIGKILL) while it is inside the commit's transaction, appending a 5,000-row file; after a
// restart the log holds none of the file's events (or, had the commit finished first, all of
// them), never a part; committing it again then records every row once.
import { afterAll, describe, expect, it } from 'vitest';
import { call, json } from '../../../../test/http.ts';
import { type CrashRig, openCrashRig } from '../../../../test/import-crash-rig.ts';

const ROWS = 5_000;

describe.skipIf(!process.env.DATABASE_URL)('an import killed during its commit', () => {
  let rig: CrashRig | undefined;
  afterAll(async () => {
    await rig?.close();
  });

  it('leaves all rows or none, and the file can be committed once after the restart', async () => {
    rig = await openCrashRig();
    const { client } = rig;
    const up = rig.up;
    const imported = async () =>
      Number(
        (
          await client.query<{ n: string }>(
            "SELECT count(*)::text AS n FROM es.events WHERE type = 'FunderCreated' AND metadata->>'importId' IS NOT NULL",
          )
        ).rows[0]!.n,
      );

    let { port, token } = await up();
    const city = await call(port, 'POST', '/api/masters/cities', {
      token,
      body: { name: 'Kabul', currency_name: 'AFN', rate: '1.25' },
    });
    expect(city.status).toBe(201);
    const csv = `Name,City,Opening Balance\n${Array.from({ length: ROWS }, (_, i) => `Funder ${i + 1},Kabul,${i + 1}`).join('\n')}\n`;
    const upload = await fetch(`http://127.0.0.1:${port}/api/imports?kind=funders&file_name=funders.csv`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: csv,
    });
    expect(upload.status).toBe(201);
    const preview = (await upload.json()) as { id: string; status: string };
    expect(preview.status).toBe('valid');

    await rig.killDuringCommit(port, token, preview.id);
    const afterKill = await imported();
    expect([0, ROWS]).toContain(afterKill);
    const marker = Number(
      (
        await client.query<{ n: string }>(
          "SELECT count(*)::text AS n FROM es.events WHERE type = 'ImportCommitted'",
        )
      ).rows[0]!.n,
    );
    expect(marker).toBe(afterKill === 0 ? 0 : 1);

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
  }, 240_000);
});

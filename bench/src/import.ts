/**
 * Importing one XLSX of 10,000 funders (issue #31) through the command API on Postgres: the
 * upload (read, every row checked, preview stored) and the commit (10,001 appends in one
 * transaction) timed, then the projector catching up with it. A fresh database per run.
 *
 *   npm run import --workspace bench     (DATABASE_URL, default the local Postgres; ROWS=10000)
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { commandTestApp } from '@bahi/command/testing';
import { waitForProjections } from '@bahi/read-db';
import { createPgSqlClient } from '@bahi/sql-client';
import ExcelJS from 'exceljs';
import pg from 'pg';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.ROWS ?? 10_000);
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function main() {
  const name = `bahi_bench_import_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  const sql = createPgSqlClient({ connectionString: url.toString(), max: 5 });
  const t = await commandTestApp({ sql });
  try {
    for (const [city, currency] of [
      ['Kabul', 'AFN'],
      ['Mumbai', 'INR'],
      ['Karachi', 'PKR'],
    ])
      await t.call('POST', '/api/masters/cities', t.adminToken, {
        name: city,
        currency_name: currency,
        rate: 1,
      });
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Funders');
    sheet.addRow(['Name', 'City', 'Opening Balance', 'Joining Date', 'Phone', 'Address', 'Narration']);
    const cities = ['Kabul', 'Mumbai', 'Karachi'];
    for (let i = 1; i <= ROWS; i++)
      sheet.addRow([
        `Funder ${i}`,
        cities[i % 3],
        `₹ ${i * 100}.50`,
        '01/04/2026',
        '+93 70 000 0000',
        'Bazaar',
        null,
      ]);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');

    let start = performance.now();
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/imports?kind=funders&file_name=funders.xlsx',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': XLSX },
      payload: file,
    });
    const previewMs = performance.now() - start;
    if (upload.statusCode !== 201)
      throw new Error(`upload: ${upload.statusCode} ${upload.body.slice(0, 500)}`);
    const preview = upload.json();
    if (preview.status !== 'valid')
      throw new Error(`preview: ${JSON.stringify(preview.file_errors)} ${preview.rows_invalid}`);

    start = performance.now();
    const commit = await t.call('POST', `/api/imports/${preview.id}/commit`, t.adminToken);
    const commitMs = performance.now() - start;
    if (commit.statusCode !== 200) throw new Error(`commit: ${commit.statusCode} ${commit.body}`);
    const position = BigInt(commit.json().position);
    start = performance.now();
    await waitForProjections(t.deps.readDb, ['masters', 'activity_log'], position, 300_000);
    const projectMs = performance.now() - start;
    const parties = await t.deps.readDb
      .selectFrom('parties')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();

    console.log(
      JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}`,
          loadavgAtStart: load,
          rows: ROWS,
          fileBytes: file.length,
          previewMs: Math.round(previewMs),
          commitMs: Math.round(commitMs),
          projectorCatchUpMs: Math.round(projectMs),
          events: commit.json().events,
          partiesProjected: Number(parties.n),
        },
        null,
        2,
      ),
    );
  } finally {
    await t.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();

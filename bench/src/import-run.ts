/**
 * What the import benchmarks (import.ts, import-purchases.ts; issue #31) share: a fresh Postgres
 * database with the command app and its projector on it, and one file uploaded, committed and
 * projected, each step timed, the figures printed as JSON for docs/benchmarks.md.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { type CommandTestApp, commandTestApp } from '@bahi/command/testing';
import { waitForProjections } from '@bahi/read-db';
import { createPgSqlClient } from '@bahi/sql-client';
import pg from 'pg';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Runs `fn` on the command app over a database of its own, dropped afterwards. */
export async function withBenchApp(label: string, fn: (t: CommandTestApp) => Promise<void>): Promise<void> {
  const name = `bahi_bench_${label}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  const sql = createPgSqlClient({ connectionString: url.toString(), max: 5 });
  const t = await commandTestApp({ sql });
  try {
    await fn(t);
  } finally {
    await t.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * Uploads `file` as `kind` (the preview), commits it, and waits for `models` to reach the
 * commit; prints the machine, the load average at the start and each step's time, with
 * `extra(preview)` and the rows `table` holds afterwards.
 */
export async function timeImport(
  t: CommandTestApp,
  run: {
    kind: string;
    file: Buffer;
    rows: number;
    models: string[];
    table: 'parties' | 'purchases';
    extra?: (
      preview: Record<string, unknown> & { effect: Record<string, unknown[]> },
    ) => Record<string, unknown>;
  },
): Promise<void> {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  let start = performance.now();
  const upload = await t.app.inject({
    method: 'POST',
    url: `/api/imports?kind=${run.kind}&file_name=${run.kind}.xlsx`,
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': XLSX },
    payload: run.file,
  });
  const previewMs = performance.now() - start;
  if (upload.statusCode !== 201) throw new Error(`upload: ${upload.statusCode} ${upload.body.slice(0, 500)}`);
  const preview = upload.json();
  if (preview.status !== 'valid')
    throw new Error(
      `preview: ${JSON.stringify(preview.file_errors)} ${preview.rows_invalid} ${JSON.stringify(preview.rows.find((r: { outcome: string }) => r.outcome === 'error'))}`,
    );

  start = performance.now();
  const commit = await t.call('POST', `/api/imports/${preview.id}/commit`, t.adminToken);
  const commitMs = performance.now() - start;
  if (commit.statusCode !== 200) throw new Error(`commit: ${commit.statusCode} ${commit.body}`);
  start = performance.now();
  await waitForProjections(t.deps.readDb, run.models, BigInt(commit.json().position), 600_000);
  const projectMs = performance.now() - start;
  const projected = await t.deps.readDb
    .selectFrom(run.table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();

  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}`,
        loadavgAtStart: load,
        rows: run.rows,
        fileBytes: run.file.length,
        previewMs: Math.round(previewMs),
        commitMs: Math.round(commitMs),
        projectorCatchUpMs: Math.round(projectMs),
        events: commit.json().events,
        [`${run.table}Projected`]: Number(projected.n),
        ...run.extra?.(preview),
      },
      null,
      2,
    ),
  );
}

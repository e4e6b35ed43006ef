/**
 * npm run projections -- status
 * npm run projections -- rebuild [name...] [--compare-only]
 * npm run projections -- resume <name>
 * npm run projections -- failing <name>
 * npm run projections -- quarantine <name> <position> --reason "why"
 *
 * For the database the environment names (DATABASE_URL, or the standalone's BAHI_DATA_DIR):
 * - status: each projection's position, lag behind the head of the log, status and last error,
 *   and the last rebuilds.
 * - rebuild: replays the log into a shadow schema while the live read models keep serving,
 *   prints the comparison (row counts, checksums, balance differences) and swaps the rebuilt
 *   tables in atomically (unless --compare-only). No names: every projection.
 * - resume: a projection stopped by an event it could not apply starts again from its checkpoint.
 * - failing: the event a stopped projection cannot apply (position, type, stream, data, error).
 * - quarantine: sets that event aside for the projection (an EventQuarantined event with the
 *   reason), and the projection goes on; rebuilds leave it out too.
 * An embedded database belongs to one process: with the standalone running, use the Admin API.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { RebuildReport } from '@bahi/contracts';
import {
  allProjections,
  failingEvent,
  QuarantineRefused,
  quarantineEvent,
  RebuildRefused,
  rebuildProjections,
  resumeProjection,
} from '@bahi/projections';
import { projectionStatus } from '@bahi/read-db';
import { openEmbeddedStorage, openServerStorage } from '@bahi/server-kit';
import { lockDataDir } from '@bahi/standalone';

const USAGE = `usage: npm run projections -- status
       npm run projections -- rebuild [name...] [--compare-only]
       npm run projections -- resume <name>
       npm run projections -- failing <name>
       npm run projections -- quarantine <name> <position> --reason "why it is set aside"
projections: ${allProjections.map((p) => p.name).join(', ')}`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { 'compare-only': { type: 'boolean', default: false }, reason: { type: 'string' } },
});
const [command, ...names] = positionals;
if (
  !command ||
  !['status', 'rebuild', 'resume', 'failing', 'quarantine'].includes(command) ||
  ((command === 'resume' || command === 'failing') && names.length !== 1) ||
  (command === 'quarantine' &&
    (names.length !== 2 || !/^\d{1,19}$/.test(names[1]!) || (values.reason ?? '').trim().length < 3))
) {
  console.error(USAGE);
  process.exit(2);
}

const databaseUrl = process.env.DATABASE_URL;
const dataDir = resolve(process.env.BAHI_DATA_DIR ?? './data');
let lock: { release(): Promise<void> } | undefined;
if (!databaseUrl) {
  try {
    lock = await lockDataDir(dataDir);
  } catch (error) {
    console.error(`projections: ${(error as Error).message}`);
    process.exit(1);
  }
}
const storage = databaseUrl
  ? await openServerStorage({
      databaseUrl,
      esdbUrl: process.env.ESDB_URL,
      applicationName: 'bahi-projections-cli',
    })
  : await openEmbeddedStorage({ dataDir: resolve(dataDir, 'pglite') });

function printReport(report: RebuildReport) {
  console.log(
    `rebuilt ${report.projections.join(', ')} from ${report.events} events: ${
      report.identical ? 'identical to the live read models' : 'DIFFERENT from the live read models'
    }${report.swap ? '; swapped in' : '; compared only, nothing swapped'}`,
  );
  console.table(
    report.comparisons.flatMap((c) =>
      c.tables.map((t) => ({
        projection: c.projection,
        table: t.table,
        position:
          c.livePosition === c.shadowPosition ? c.livePosition : `${c.livePosition} / ${c.shadowPosition}`,
        'live rows': t.liveRows,
        'rebuilt rows': t.shadowRows,
        checksums: t.identical ? 'equal' : `${t.liveChecksum} / ${t.shadowChecksum}`,
      })),
    ),
  );
  const differences = report.comparisons.flatMap((c) => c.balanceDifferences);
  if (differences.length > 0) {
    console.log('balances that differ (live / rebuilt):');
    console.table(differences);
  }
}

try {
  if (command === 'status') {
    const head = await storage.eventStore.headPosition();
    const rows = (await projectionStatus(storage.readDb, head)).map((c) => ({
      projection: c.name,
      position: c.position,
      lag: c.lag,
      status: c.status,
      error: c.error ?? '',
      updated: c.updatedAt,
    }));
    console.log(`head of the log: ${head}`);
    console.table(rows);
    const rebuilds = await storage.readDb
      .selectFrom('projection_rebuilds')
      .select(['id', 'projections', 'status', 'position', 'target', 'error', 'requested_at'])
      .orderBy('requested_at', 'desc')
      .limit(5)
      .execute();
    if (rebuilds.length > 0) {
      console.log('last rebuilds:');
      console.table(
        rebuilds.map((r) => ({
          id: r.id,
          projections: r.projections.join(', '),
          status: r.status,
          progress: `${r.position} / ${r.target}`,
          error: r.error ?? '',
        })),
      );
    }
    process.exitCode = rows.some((r) => r.status === 'failed') ? 1 : 0;
  } else if (command === 'failing') {
    const failing = await failingEvent(storage.eventStore, storage.readDb, names[0]!);
    if (!failing) {
      console.log(`projections: ${names[0]} is not stopped at an event`);
      process.exitCode = 1;
    } else {
      const { event } = failing;
      console.log(`${names[0]} is stopped at position ${event.position}: ${event.type} in ${event.streamId}`);
      console.log(`error: ${failing.error ?? ''}`);
      console.log(JSON.stringify({ data: event.data, metadata: event.metadata }, null, 2));
      console.log(
        `to set it aside: npm run projections -- quarantine ${names[0]} ${event.position} --reason "..."`,
      );
    }
  } else if (command === 'quarantine') {
    try {
      const done = await quarantineEvent(storage.eventStore, storage.readDb, {
        projection: names[0]!,
        position: BigInt(names[1]!),
        reason: values.reason!.trim(),
        metadata: { userId: null, correlationId: `cli-${process.pid}`, causationId: null, via: 'cli' },
      });
      console.log(
        `projections: the ${done.event.type} event at position ${done.event.position} is set aside for ${names[0]} (recorded at position ${done.position}); ${names[0]} goes on`,
      );
    } catch (error) {
      if (!(error instanceof QuarantineRefused)) throw error;
      console.error(`projections: ${error.message}`);
      process.exitCode = 1;
    }
  } else if (command === 'resume') {
    const outcome = await resumeProjection(storage.readDb, names[0]!);
    const said = {
      resumed: `${names[0]} resumes from its checkpoint`,
      'not-failed': `${names[0]} is not stopped; nothing to resume`,
      unknown: `no projection ${names[0]} has run on this database`,
    }[outcome];
    console.log(`projections: ${said}`);
    process.exitCode = outcome === 'resumed' ? 0 : 1;
  } else {
    const started = Date.now();
    let shown = 0;
    const report = await rebuildProjections({
      eventStore: storage.eventStore,
      readDb: storage.readDb,
      names,
      swap: !values['compare-only'],
      requestedBy: 'cli',
      onProgress: ({ position, target, events }) => {
        if (Date.now() - shown < 2000) return;
        shown = Date.now();
        const rate = Math.round(events / ((Date.now() - started) / 1000));
        console.log(`rebuild: position ${position} of ${target} (${events} events, ${rate} events/s)`);
      },
    });
    console.log(`rebuild took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    printReport(report);
    process.exitCode = report.identical ? 0 : 3;
  }
} catch (error) {
  if (!(error instanceof RebuildRefused)) throw error;
  console.error(`projections: ${error.message}`);
  process.exitCode = 1;
} finally {
  await storage.close();
  await lock?.release();
}

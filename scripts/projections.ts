/**
 * npm run projections -- status
 *
 * Each projection's position, lag behind the head of the log, status and last error, for the
 * database the environment names (DATABASE_URL, or the standalone's BAHI_DATA_DIR). Rebuilding
 * into a shadow schema comes with the rest of the read-side issue.
 */
import { resolve } from 'node:path';
import { readCheckpoints } from '@bahi/read-db';
import { openEmbeddedStorage, openServerStorage } from '@bahi/server-kit';
import { lockDataDir } from '@bahi/standalone';

const [command] = process.argv.slice(2);
if (command !== 'status') {
  console.error('usage: npm run projections -- status');
  process.exit(2);
}

const databaseUrl = process.env.DATABASE_URL;
const dataDir = resolve(process.env.BAHI_DATA_DIR ?? './data');
// An embedded database belongs to one process: take the standalone's lock, or say who holds it.
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
try {
  const head = await storage.eventStore.headPosition();
  const rows = (await readCheckpoints(storage.readDb)).map((c) => ({
    projection: c.name,
    position: c.position.toString(),
    lag: (head > c.position ? head - c.position : 0n).toString(),
    status: c.status,
    error: c.error ?? '',
    updated: c.updatedAt,
  }));
  console.log(`head of the log: ${head}`);
  console.table(rows);
  process.exitCode = rows.some((r) => r.status === 'failed') ? 1 : 0;
} finally {
  await storage.close();
  await lock?.release();
}

/**
 * npm run restore -- <backup file>
 *
 * Loads a backup (npm run backup, or the standalone's Back up now / daily backup) into the
 * EMPTY store the environment names: DATABASE_URL (a new database), or else a new standalone
 * data directory BAHI_DATA_DIR (./data by default) never started. The chain is verified while
 * the events load, in one transaction: a damaged file is refused with the position of its
 * first bad event and nothing stays loaded. Then every read model is rebuilt from the log.
 * Exit codes: 0 restored, 1 refused (damaged file, store not empty, directory in use), 2 usage.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BackupRefused, restoreBackup } from '@bahi/backup';
import { openCredentials } from '@bahi/command';
import { openCliStorage } from './cli-storage.ts';

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length !== 1) {
  console.error('usage: npm run restore -- <backup file>   (into DATABASE_URL, or else BAHI_DATA_DIR)');
  process.exit(2);
}
if (process.env.ESDB_URL) {
  console.error('restore: restores into Postgres or PGlite only; unset ESDB_URL.');
  process.exit(2);
}
const file = resolve(positionals[0]!);
const storage = await openCliStorage(
  'restore',
  () =>
    'Restore into a new data directory that no app runs on: BAHI_DATA_DIR=./data-restored npm run restore -- <file>.',
);
try {
  const started = Date.now();
  await openCredentials(storage.sql); // the sign-in credentials' table, which the backup fills too
  const { manifest, rebuild } = await restoreBackup(storage, file, {
    onProgress: (step) => console.log(`restore: ${step}`),
  });
  console.log(
    `restore: ${manifest.events} events up to position ${manifest.headPosition} restored into ${storage.where} with ${manifest.credentials} sign-in credentials; chain verified (head ${manifest.chainHead})`,
  );
  console.log(
    `restore: read models rebuilt from ${rebuild.events} events (${rebuild.projections.length} projections) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (error) {
  if (!(error instanceof BackupRefused)) throw error;
  console.error(`restore: ${error.message}`);
  process.exitCode = 1;
} finally {
  await storage.close();
}

/**
 * npm run backup [-- --out <file or directory>]
 *
 * Writes the event log of the store the environment names (DATABASE_URL, or the standalone's
 * PGlite under BAHI_DATA_DIR, ./data by default) to a gzip'd NDJSON file with its manifest
 * (README, "Backups"). It runs while the services write: the log up to the head taken at the
 * start. The default --out is ./backups/ (a directory: the file is named by time and head).
 * The standalone app owns its data directory while it runs: back it up from inside the app
 * (Settings > System > Back up now, POST /api/admin/backups, or BAHI_BACKUP_DIR's daily backup).
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backupFileName, takeBackup } from '@bahi/backup';
import { openCliStorage } from './cli-storage.ts';

const { values } = parseArgs({ options: { out: { type: 'string', default: './backups' } } });
if (process.env.ESDB_URL) {
  console.error('backup: the event log is on EventStoreDB (ESDB_URL); back it up with its own tools.');
  process.exit(2);
}
const out = resolve(values.out);
const isDir =
  out.endsWith('/') || !/\.ndjson(\.gz)?$/.test(out) || (await stat(out).catch(() => null))?.isDirectory();

const storage = await openCliStorage(
  'backup',
  () =>
    'The running app owns it: take the backup inside the app instead, as an Admin: Settings > System > "Back up now" ' +
    '(or POST /api/admin/backups), or set BAHI_BACKUP_DIR for a daily one. Or stop the app and run npm run backup again.',
);
try {
  const started = Date.now();
  let shown = Date.now();
  const manifest = await takeBackup(
    storage.sql,
    (head, at) => (isDir ? join(out, backupFileName(at, head)) : out),
    {
      onProgress: (events, head) => {
        if (Date.now() - shown < 2000) return;
        shown = Date.now();
        console.log(`backup: ${events} events written (head ${head})`);
      },
    },
  );
  const file = isDir ? join(out, manifest.file) : out;
  console.log(
    `backup: ${manifest.events} events of ${storage.where} up to position ${manifest.headPosition} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(`  file:        ${file} (${manifest.bytes} bytes)`);
  console.log(`  manifest:    ${file}.manifest.json`);
  console.log(`  chain head:  ${manifest.chainHead}`);
  console.log(`restore it with: npm run restore -- ${file}`);
} finally {
  await storage.close();
}

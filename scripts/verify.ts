/**
 * npm run verify [-- --file <backup>] [-- --report <file.pdf|file.xlsx>]
 *
 * Verifies the event log's chain (docs/event-store.md, "The seal"; README, "Verifying the books"):
 *   npm run verify                          the store the environment names (DATABASE_URL, or the
 *                                           standalone's PGlite under BAHI_DATA_DIR, ./data by
 *                                           default): the chain recomputed over the whole log
 *                                           against the stored seal; "intact up to position N",
 *                                           or the first position where it breaks
 *   npm run verify -- --file <backup>       a backup file: every event's hash against the chain
 *                                           (packages/backup's readBackup), and the manifest
 *   npm run verify -- --report <file>       a report file (PDF or XLSX): the chain head in its
 *                                           properties against the chain recomputed from the log
 *                                           up to the file's position (with --file: from a backup)
 * Exit codes: 0 intact / the report verifies, 1 broken / it does not (or cannot be checked), 2 usage.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BackupRefused, readBackup } from '@bahi/backup';
import { CHAIN_GENESIS, type ChainPoint, checkChainHead, describeVerification } from '@bahi/event-store';
import { readFileVerification } from '@bahi/reports-worker/render';
import { openCliStorage } from './cli-storage.ts';

const { values } = parseArgs({ options: { file: { type: 'string' }, report: { type: 'string' } } });
const say = (line: string) => console.log(`verify: ${line}`);

const openStorage = () => {
  if (process.env.ESDB_URL) {
    console.error('verify: the event log is on EventStoreDB (ESDB_URL), which keeps no chain.');
    process.exit(2);
  }
  return openCliStorage(
    'verify',
    () =>
      'The running app owns it: verify inside the app instead, as an Admin: Settings > System > "Verify the books" ' +
      '(or GET /api/admin/verify). Or stop the app and run npm run verify again.',
  );
};

/** A backup's chain, verified as it is read; the hash at `upTo` (the last event at or below it) on the way. */
async function verifyBackup(
  file: string,
  upTo?: bigint,
): Promise<{ ok: boolean; at?: ChainPoint; head: string }> {
  try {
    const read = await readBackup(file);
    let at: ChainPoint = { position: 0n, hash: CHAIN_GENESIS };
    for await (const batch of read.events)
      for (const event of batch)
        if (upTo !== undefined && BigInt(event.position) <= upTo)
          at = { position: BigInt(event.position), hash: event.hash };
    const manifest = read.manifest();
    say(
      `backup ${file}: intact, ${manifest.events} events up to position ${manifest.headPosition}, chain head ${manifest.chainHead}`,
    );
    if (manifest.sealedChainHead && manifest.sealedChainHead !== manifest.chainHead) {
      say(
        `but the database's seal at position ${manifest.headPosition} was ${manifest.sealedChainHead} when it was taken: the log had been altered before this backup (run npm run verify on that database to find where).`,
      );
      return { ok: false, head: manifest.headPosition };
    }
    return { ok: true, at, head: manifest.headPosition };
  } catch (error) {
    if (!(error instanceof BackupRefused)) throw error;
    say(`backup ${file}: BROKEN${error.position ? ` at position ${error.position}` : ''}. ${error.message}`);
    return { ok: false, head: '0' };
  }
}

async function verifyReport(path: string, backup: string | undefined): Promise<boolean> {
  const found = await readFileVerification(path);
  if (!found) {
    say(`${path} carries no Bahi verification (not a Bahi report file).`);
    return false;
  }
  say(
    `${path}: ${found.format.toUpperCase()}, verification code ${found.code}, read at position ${found.position}`,
  );
  if (!found.chainHead) {
    say(
      'it carries no chain head (made before the seal, or from a log without one): it cannot be checked against the log.',
    );
    return false;
  }
  const position = BigInt(found.position);
  let recomputed: string;
  let why: 'log-altered' | 'not-this-log' | undefined;
  let stored: string | undefined;
  if (backup) {
    const checked = await verifyBackup(backup, position);
    if (!checked.at) return false;
    if (BigInt(checked.head) < position) {
      say(`the backup ends at position ${checked.head}, before the report's position ${found.position}.`);
      return false;
    }
    recomputed = checked.at.hash;
  } else {
    const storage = await openStorage();
    try {
      ({ recomputed, why, stored } = await checkChainHead(storage.sql, position, found.chainHead));
    } finally {
      await storage.close();
    }
  }
  if (recomputed === found.chainHead) {
    say(
      `VERIFIES: the log up to position ${found.position} is what it was when the report was made (chain head ${found.chainHead}).`,
    );
    return true;
  }
  say(`DOES NOT VERIFY: the report's chain head at position ${found.position} is ${found.chainHead};`);
  say(`the log recomputed up to it gives ${recomputed}.`);
  if (why === 'log-altered')
    say(
      'The stored seal still agrees with the report: the log was altered at or before that position after it was sealed. Run npm run verify to name the first altered position.',
    );
  else if (why === 'not-this-log')
    say(
      `The stored seal there is ${stored}: the report was not read from this log (another database), or the report or the seal was altered.`,
    );
  return false;
}

async function verifyStore(): Promise<boolean> {
  const storage = await openStorage();
  try {
    if (!storage.eventStore.verifyChain) throw new Error('this event store keeps no chain');
    let shown = Date.now();
    const result = await storage.eventStore.verifyChain({
      onProgress: ({ checked, total }) => {
        if (Date.now() - shown < 2000) return;
        shown = Date.now();
        say(`${checked} of ${total} events checked`);
      },
    });
    say(
      `${storage.where}: ${result.status === 'intact' ? 'INTACT' : 'BROKEN'}. ${describeVerification(result)}`,
    );
    return result.status === 'intact';
  } finally {
    await storage.close();
  }
}

let ok: boolean;
if (values.report) ok = await verifyReport(resolve(values.report), values.file && resolve(values.file));
else if (values.file) ok = (await verifyBackup(resolve(values.file))).ok;
else ok = await verifyStore();
process.exitCode = ok ? 0 : 1;

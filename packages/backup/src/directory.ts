import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlClient } from '@bahi/sql-client';
import { backupFileName, manifestPathOf, takeBackup } from './backup.ts';
import type { BackupManifest } from './format.ts';

const MANIFEST = /^bahi-backup-.+\.ndjson\.gz\.manifest\.json$/;

/** The backups in a directory (those with a manifest, so complete), newest first. */
export async function listBackups(dir: string): Promise<BackupManifest[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const manifests: BackupManifest[] = [];
  for (const name of names.filter((n) => MANIFEST.test(n))) {
    try {
      manifests.push(JSON.parse(await readFile(join(dir, name), 'utf8')) as BackupManifest);
    } catch {
      // A manifest being written or damaged: not listed.
    }
  }
  return manifests.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * Takes a backup into `dir` and keeps the newest `keep` there (older ones, file and manifest,
 * are deleted). One at a time per process: a second call while one runs is refused.
 */
export function backupDirectory(sql: SqlClient, dir: string, keep: number) {
  let running: Promise<BackupManifest> | undefined;
  return {
    get running() {
      return running !== undefined;
    },
    async take(now = new Date()): Promise<BackupManifest> {
      if (running) throw new BackupBusy();
      running = (async () => {
        const manifest = await takeBackup(sql, (head) => join(dir, backupFileName(now, head)));
        for (const old of (await listBackups(dir)).slice(keep)) {
          await rm(join(dir, old.file), { force: true });
          await rm(manifestPathOf(join(dir, old.file)), { force: true });
        }
        return manifest;
      })();
      try {
        return await running;
      } finally {
        running = undefined;
      }
    },
  };
}

export class BackupBusy extends Error {
  override readonly name = 'BackupBusy';
  constructor() {
    super('A backup is being taken already; wait for it to finish.');
  }
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * The standalone's daily backup: at start and every hour after, a backup is taken when the
 * newest one in the directory is a day old or there is none.
 */
export function startDailyBackups(options: {
  dir: string;
  take: () => Promise<unknown>;
  log: (message: string, error?: unknown) => void;
  checkEveryMs?: number;
}): { stop(): Promise<void> } {
  let current: Promise<unknown> = Promise.resolve();
  const check = () => {
    current = (async () => {
      const newest = (await listBackups(options.dir))[0];
      if (newest && Date.now() - Date.parse(newest.createdAt) < DAY_MS) return;
      await options.take();
    })().catch((error) => options.log('the daily backup failed', error));
  };
  check();
  const timer = setInterval(check, options.checkEveryMs ?? 60 * 60_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}

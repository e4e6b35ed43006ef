import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from '@bahi/server-kit';

/**
 * One process per data directory: two PGlite instances on the same files would corrupt
 * them. A lock left by a process that no longer runs (a crash) is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<{ release(): Promise<void> }> {
  await mkdir(dataDir, { recursive: true }); // a first start: nothing there yet
  const path = join(dataDir, 'bahi.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }));
      await handle.close();
      return { release: () => rm(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(JSON.parse(await readFile(path, 'utf8').catch(() => '{}')).pid);
      if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) {
        throw new Error(
          `Another Bahi process (pid ${holder}) is using the data directory ${dataDir}. Stop it first, or set BAHI_DATA_DIR to another directory.`,
        );
      }
      await rm(path, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}

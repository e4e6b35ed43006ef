import { resolve } from 'node:path';
import { openEmbeddedStorage, openServerStorage, type Storage } from '@bahi/server-kit';
import { lockDataDir } from '@bahi/standalone';

/**
 * The storage a CLI works on, as the environment names it: DATABASE_URL (a server Postgres,
 * shared with the running services), or else the standalone's PGlite under BAHI_DATA_DIR
 * (./data), which one process owns at a time: when the app holds it, `whenHeld` says what to do
 * and the CLI exits 1.
 */
export async function openCliStorage(
  name: string,
  whenHeld: (dataDir: string) => string,
): Promise<Storage & { where: string }> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const storage = await openServerStorage({
      databaseUrl,
      esdbUrl: process.env.ESDB_URL,
      applicationName: `bahi-${name}-cli`,
    });
    const where = new URL(databaseUrl);
    return { ...storage, where: `Postgres ${where.host}${where.pathname}` };
  }
  const dataDir = resolve(process.env.BAHI_DATA_DIR ?? './data');
  let lock: { release(): Promise<void> };
  try {
    lock = await lockDataDir(dataDir);
  } catch (error) {
    console.error(`${name}: ${(error as Error).message}`);
    console.error(whenHeld(dataDir));
    process.exit(1);
  }
  const storage = await openEmbeddedStorage({ dataDir: resolve(dataDir, 'pglite') });
  return {
    ...storage,
    where: `PGlite ${dataDir}`,
    async close() {
      await storage.close();
      await lock.release();
    },
  };
}

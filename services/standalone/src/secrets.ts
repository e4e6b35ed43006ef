import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface StandaloneSecrets {
  jwtSecret: string;
}

/**
 * Standalone has no operator to hand it secrets: it makes them on first start and keeps
 * them beside the data (readable by the owner only), so sessions survive a restart.
 */
export async function loadOrCreateSecrets(dataDir: string): Promise<StandaloneSecrets> {
  const path = join(dataDir, 'secrets.json');
  try {
    const stored = JSON.parse(await readFile(path, 'utf8')) as Partial<StandaloneSecrets>;
    if (typeof stored.jwtSecret === 'string' && stored.jwtSecret.length >= 32)
      return { jwtSecret: stored.jwtSecret };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets = { jwtSecret: randomBytes(48).toString('base64url') };
  await writeFile(path, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

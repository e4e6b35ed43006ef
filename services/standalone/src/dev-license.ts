import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateLicenseKeys, issueLicense } from '@bahi/server-kit';

export interface LicenseFiles {
  BAHI_LICENSE_FILE?: string | undefined;
  BAHI_LICENSE?: string | undefined;
  BAHI_LICENSE_PUBLIC_KEY_FILE?: string | undefined;
  BAHI_LICENSE_PUBLIC_KEY?: string | undefined;
}

const exists = (path: string) =>
  readFile(path).then(
    () => true,
    () => false,
  );

/**
 * A standalone install has nobody to hand it a license: on the first start it makes a
 * development key pair and a 30-day Trial license under <data>/license and says so. An
 * operator's own BAHI_LICENSE* settings always win.
 */
export async function ensureDevelopmentLicense(
  dataDir: string,
  config: LicenseFiles,
  now: Date = new Date(),
): Promise<{ files: LicenseFiles; created?: { expiresAt: string; dir: string } }> {
  const configured =
    config.BAHI_LICENSE_FILE ||
    config.BAHI_LICENSE ||
    config.BAHI_LICENSE_PUBLIC_KEY_FILE ||
    config.BAHI_LICENSE_PUBLIC_KEY;
  if (configured) return { files: config };
  const dir = join(dataDir, 'license');
  const files = {
    BAHI_LICENSE_FILE: join(dir, 'license.jws'),
    BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
  };
  if (await exists(files.BAHI_LICENSE_FILE)) return { files };
  await mkdir(dir, { recursive: true });
  const keys = await generateLicenseKeys();
  await writeFile(files.BAHI_LICENSE_PUBLIC_KEY_FILE, keys.publicKeyPem);
  await writeFile(join(dir, 'private.pem'), keys.privateKeyPem, { mode: 0o600 });
  const expiresAt = new Date(now.getTime() + 30 * 86_400_000).toISOString();
  const jws = await issueLicense(keys.privateKeyPem, {
    status: 'Active',
    type: 'Development',
    expires_at: expiresAt,
    grace_period_days: 7,
    expiry_notification_days: 15,
    licensee: 'Development (standalone)',
    issued_at: now.toISOString(),
  });
  await writeFile(files.BAHI_LICENSE_FILE, jws);
  return { files, created: { expiresAt, dir } };
}

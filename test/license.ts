import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateLicenseKeys, issueLicense } from '@bahi/server-kit';

/**
 * A valid license as a deployment keeps it, for tests that start the services as processes:
 * `license.jws` (Standard, 30 days) and the `public.pem` that verifies it, written into `dir`.
 */
export async function writeTestLicense(dir: string): Promise<void> {
  const keys = await generateLicenseKeys();
  await writeFile(join(dir, 'public.pem'), keys.publicKeyPem);
  await writeFile(
    join(dir, 'license.jws'),
    await issueLicense(keys.privateKeyPem, {
      status: 'Active',
      type: 'Standard',
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      grace_period_days: 7,
      expiry_notification_days: 15,
    }),
  );
}

/**
 * npm run license -- keygen --out-dir <dir>
 * npm run license -- issue --private-key <file> [--days 365 | --expires 2027-12-31 | --type Perpetual]
 *                          [--type Standard] [--status Active|Expired] [--grace 7] [--notify 15]
 *                          [--licensee "Name"] [--out <file>]
 * npm run license -- show --license <file> --public-key <file>
 *
 * Licenses are Ed25519-signed JWS. The server verifies them with the public key it is given
 * (BAHI_LICENSE_PUBLIC_KEY_FILE); keep the private key away from servers.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { evaluateLicense, generateLicenseKeys, issueLicense, verifyLicense } from '@bahi/server-kit';

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    'out-dir': { type: 'string' },
    'private-key': { type: 'string' },
    'public-key': { type: 'string' },
    license: { type: 'string' },
    days: { type: 'string' },
    expires: { type: 'string' },
    type: { type: 'string', default: 'Standard' },
    status: { type: 'string', default: 'Active' },
    grace: { type: 'string', default: '7' },
    notify: { type: 'string', default: '15' },
    licensee: { type: 'string' },
    out: { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(`license: ${message}`);
  process.exit(2);
}

const wholeDays = (name: string, value: string | undefined) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a whole number of days`);
  return n;
};

switch (command) {
  case 'keygen': {
    const dir = values['out-dir'] ?? fail('keygen needs --out-dir');
    await mkdir(dir, { recursive: true });
    const keys = await generateLicenseKeys();
    await writeFile(join(dir, 'public.pem'), keys.publicKeyPem);
    await writeFile(join(dir, 'private.pem'), keys.privateKeyPem, { mode: 0o600 });
    console.log(
      `Wrote ${join(dir, 'public.pem')} (give it to servers) and ${join(dir, 'private.pem')} (keep it safe).`,
    );
    break;
  }
  case 'issue': {
    const privateKey = await readFile(values['private-key'] ?? fail('issue needs --private-key'), 'utf8');
    if (values.status !== 'Active' && values.status !== 'Expired') fail('--status must be Active or Expired');
    const perpetual = values.type === 'Perpetual';
    let expiresAt: string | null = null;
    if (values.expires) {
      const t = Date.parse(values.expires);
      if (Number.isNaN(t)) fail('--expires must be a date such as 2027-12-31');
      expiresAt = new Date(t).toISOString();
    } else if (!perpetual || values.days) {
      expiresAt = new Date(Date.now() + wholeDays('days', values.days ?? '365') * 86_400_000).toISOString();
    }
    const jws = await issueLicense(privateKey, {
      status: values.status,
      type: values.type!,
      expires_at: expiresAt,
      grace_period_days: wholeDays('grace', values.grace),
      expiry_notification_days: wholeDays('notify', values.notify),
      ...(values.licensee ? { licensee: values.licensee } : {}),
      issued_at: new Date().toISOString(),
    });
    if (values.out) {
      await writeFile(values.out, jws);
      console.log(
        `Wrote ${values.out}: ${values.type}, ${expiresAt ? `expires ${expiresAt.slice(0, 10)}` : 'no expiry'}.`,
      );
    } else {
      console.log(jws);
    }
    break;
  }
  case 'show': {
    const jws = await readFile(values.license ?? fail('show needs --license'), 'utf8');
    const publicKey = await readFile(values['public-key'] ?? fail('show needs --public-key'), 'utf8');
    const claims = await verifyLicense(jws, publicKey).catch((e: Error) => fail(e.message));
    console.log(JSON.stringify({ claims, now: evaluateLicense(claims, new Date()) }, null, 2));
    break;
  }
  default:
    fail('usage: npm run license -- keygen|issue|show ... (see scripts/license.ts)');
}

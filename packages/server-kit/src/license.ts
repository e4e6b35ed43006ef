import { readFile } from 'node:fs/promises';
import { type LicenseClaims, type LicenseStatus, licenseClaims } from '@bahi/contracts';
import {
  CompactSign,
  compactVerify,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  importPKCS8,
  importSPKI,
} from 'jose';

/**
 * What a license says is the contract's `licenseClaims`, signed with Ed25519 by whoever issues
 * licenses. The answer of GET /auth/license-status is the contract's too (spec section 3).
 */
export type LicenseInfo = LicenseStatus;

const LICENSE_TYP = 'bahi-license+jws';
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class LicenseError extends Error {
  override readonly name = 'LicenseError';
}

export async function generateLicenseKeys(): Promise<{ publicKeyPem: string; privateKeyPem: string }> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  return { publicKeyPem: await exportSPKI(publicKey), privateKeyPem: await exportPKCS8(privateKey) };
}

export async function issueLicense(privateKeyPem: string, claims: LicenseClaims): Promise<string> {
  const key = await importPKCS8(privateKeyPem, 'EdDSA');
  const payload = new TextEncoder().encode(JSON.stringify(licenseClaims.parse(claims)));
  return new CompactSign(payload).setProtectedHeader({ alg: 'EdDSA', typ: LICENSE_TYP }).sign(key);
}

/** The claims of a license whose signature the public key accepts (EdDSA only); LicenseError otherwise. */
export async function verifyLicense(jws: string, publicKeyPem: string): Promise<LicenseClaims> {
  let payload: Uint8Array;
  try {
    const key = await importSPKI(publicKeyPem.trim(), 'EdDSA');
    ({ payload } = await compactVerify(jws.trim(), key, { algorithms: ['EdDSA'] }));
  } catch {
    throw new LicenseError('The license could not be verified: it is not signed by the configured key.');
  }
  const parsed = licenseClaims.safeParse(JSON.parse(new TextDecoder().decode(payload)));
  if (!parsed.success)
    throw new LicenseError('The license could not be read: its contents are not a Bahi license.');
  return parsed.data;
}

/**
 * Whether a license lets Bahi work at `now` (spec section 4): Perpetual and Active always;
 * otherwise until expires_at, and an expired license stays valid through its grace period.
 * A license past its expiry is reported as Expired whatever status it was issued with.
 */
export function evaluateLicense(claims: LicenseClaims, now: Date): LicenseInfo {
  const { licensee: _licensee, issued_at: _issued, ...config } = claims;
  if (claims.type === 'Perpetual' && claims.status === 'Active')
    return { isValid: true, reason: null, config };
  if (!claims.expires_at) {
    return { isValid: false, reason: 'The license has no expiry date and is not Perpetual.', config };
  }
  const expires = Date.parse(claims.expires_at);
  const graceEnd = expires + claims.grace_period_days * DAY;
  const t = now.getTime();
  if (claims.status === 'Active' && t <= expires) return { isValid: true, reason: null, config };
  const expired = { ...config, status: 'Expired' as const };
  if (t <= graceEnd) {
    return {
      isValid: true,
      reason: `The license has expired and the system will not work after the grace period ends on ${day(graceEnd)}.`,
      config: expired,
    };
  }
  return {
    isValid: false,
    reason: `The license expired on ${day(expires)} and its grace period ended on ${day(graceEnd)}. Please contact support for a new license.`,
    config: expired,
  };
}

export interface LicenseSource {
  /** The license (JWS text) and the public key (PEM), as configured now; undefined when absent. */
  read(): Promise<{ license: string | undefined; publicKey: string | undefined }>;
}

/** A license and key read from files (re-read on every reload, so a new license file is picked up). */
export function fileLicenseSource(options: {
  licenseFile?: string | undefined;
  license?: string | undefined;
  publicKeyFile?: string | undefined;
  publicKey?: string | undefined;
}): LicenseSource {
  const readOptional = async (file: string | undefined) => {
    if (!file) return undefined;
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
  return {
    async read() {
      return {
        license: options.license ?? (await readOptional(options.licenseFile)),
        publicKey: options.publicKey ?? (await readOptional(options.publicKeyFile)),
      };
    },
  };
}

/**
 * The license in force: verified once per (re)load, judged against the clock on every
 * call, since a running process crosses expiry dates.
 */
export class LicenseService {
  #claims: LicenseClaims | undefined;
  #problem: string | undefined = 'The license has not been checked yet.';

  constructor(
    private readonly source: LicenseSource,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async reload(): Promise<LicenseInfo> {
    const { license, publicKey } = await this.source.read();
    this.#claims = undefined;
    if (!license || !publicKey) {
      this.#problem = publicKey
        ? 'No license is installed. Please contact support for a license.'
        : 'No license key is configured on the server.';
      return this.current();
    }
    try {
      this.#claims = await verifyLicense(license, publicKey);
      this.#problem = undefined;
    } catch (error) {
      this.#problem = error instanceof LicenseError ? error.message : 'The license could not be read.';
    }
    return this.current();
  }

  current(): LicenseInfo {
    if (!this.#claims)
      return { isValid: false, reason: this.#problem ?? 'No license is installed.', config: null };
    return evaluateLicense(this.#claims, this.now());
  }
}

/** The license as the environment configures it, loaded once. */
export async function licenseFromConfig(config: {
  BAHI_LICENSE_FILE?: string | undefined;
  BAHI_LICENSE?: string | undefined;
  BAHI_LICENSE_PUBLIC_KEY_FILE?: string | undefined;
  BAHI_LICENSE_PUBLIC_KEY?: string | undefined;
}): Promise<LicenseService> {
  const service = new LicenseService(
    fileLicenseSource({
      licenseFile: config.BAHI_LICENSE_FILE,
      license: config.BAHI_LICENSE,
      publicKeyFile: config.BAHI_LICENSE_PUBLIC_KEY_FILE,
      publicKey: config.BAHI_LICENSE_PUBLIC_KEY,
    }),
  );
  await service.reload();
  return service;
}

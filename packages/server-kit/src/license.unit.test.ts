import type { LicenseClaims } from '@bahi/contracts';
import { CompactSign, importPKCS8 } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  evaluateLicense,
  generateLicenseKeys,
  issueLicense,
  LicenseError,
  LicenseService,
  verifyLicense,
} from './license.ts';

const NOW = new Date('2026-11-21T12:00:00Z');
const claims = (c: Partial<LicenseClaims>): LicenseClaims => ({
  status: 'Active',
  type: 'Standard',
  expires_at: '2026-12-01T00:00:00.000Z',
  grace_period_days: 7,
  expiry_notification_days: 15,
  ...c,
});

describe('license validity (spec section 4)', () => {
  it('is valid while Active and before expiry, and always when Perpetual', () => {
    expect(evaluateLicense(claims({}), NOW)).toEqual({
      isValid: true,
      reason: null,
      config: {
        status: 'Active',
        type: 'Standard',
        expires_at: '2026-12-01T00:00:00.000Z',
        grace_period_days: 7,
        expiry_notification_days: 15,
      },
    });
    expect(evaluateLicense(claims({ type: 'Perpetual', expires_at: null }), NOW).isValid).toBe(true);
  });

  it('stays valid through the grace period once expired, saying when it ends, and reports Expired', () => {
    const info = evaluateLicense(claims({ expires_at: '2026-11-20T00:00:00.000Z' }), NOW);
    expect(info.isValid).toBe(true);
    expect(info.config?.status).toBe('Expired');
    expect(info.reason).toBe(
      'The license has expired and the system will not work after the grace period ends on 2026-11-27.',
    );
    expect(
      evaluateLicense(claims({ status: 'Expired', expires_at: '2026-11-20T00:00:00.000Z' }), NOW).isValid,
    ).toBe(true);
  });

  it('is invalid after the grace period, with the dates in the reason', () => {
    const info = evaluateLicense(
      claims({ expires_at: '2026-11-10T00:00:00.000Z', grace_period_days: 3 }),
      NOW,
    );
    expect(info).toMatchObject({ isValid: false, config: { status: 'Expired' } });
    expect(info.reason).toMatch(/expired on 2026-11-10 and its grace period ended on 2026-11-13/);
    expect(evaluateLicense(claims({ expires_at: null }), NOW).isValid).toBe(false);
  });
});

describe('license signatures', () => {
  it('accepts only licenses signed by the configured key, with EdDSA, carrying a license', async () => {
    const keys = await generateLicenseKeys();
    const other = await generateLicenseKeys();
    const jws = await issueLicense(keys.privateKeyPem, claims({}));
    expect(await verifyLicense(jws, keys.publicKeyPem)).toMatchObject({ status: 'Active' });
    await expect(verifyLicense(jws, other.publicKeyPem)).rejects.toBeInstanceOf(LicenseError);
    const [header, , signature] = jws.split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify(claims({ type: 'Perpetual', expires_at: null }))).toString('base64url')}.${signature}`;
    await expect(verifyLicense(tampered, keys.publicKeyPem)).rejects.toThrow(
      /not signed by the configured key/,
    );
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${jws.split('.')[1]}.`;
    await expect(verifyLicense(none, keys.publicKeyPem)).rejects.toBeInstanceOf(LicenseError);
    const notALicense = await new CompactSign(new TextEncoder().encode('{"hello":"world"}'))
      .setProtectedHeader({ alg: 'EdDSA' })
      .sign(await importPKCS8(keys.privateKeyPem, 'EdDSA'));
    await expect(verifyLicense(notALicense, keys.publicKeyPem)).rejects.toThrow(/not a Bahi license/);
  });

  it('says why when nothing is installed, and re-reads on reload', async () => {
    const keys = await generateLicenseKeys();
    let license: string | undefined;
    const service = new LicenseService(
      { read: async () => ({ license, publicKey: keys.publicKeyPem }) },
      () => NOW,
    );
    expect(await service.reload()).toEqual({
      isValid: false,
      reason: 'No license is installed. Please contact support for a license.',
      config: null,
    });
    license = await issueLicense(keys.privateKeyPem, claims({}));
    expect((await service.reload()).isValid).toBe(true);
    const noKey = new LicenseService({ read: async () => ({ license, publicKey: undefined }) });
    expect((await noKey.reload()).reason).toBe('No license key is configured on the server.');
  });
});

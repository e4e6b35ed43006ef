import { ROLES, type Role } from '@bahi/contracts/roles';
import { mayWrite } from '@bahi/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandTestApp, commandTestApp, testLicense } from './testing/command-app.ts';

describe('the license gate and the retry', () => {
  let t: CommandTestApp;
  let license: Awaited<ReturnType<typeof testLicense>>;
  beforeAll(async () => {
    // Expired ten days ago with a 3-day grace period: not valid.
    license = await testLicense({
      expires_at: new Date(Date.now() - 10 * 86_400_000).toISOString(),
      grace_period_days: 3,
    });
    t = await commandTestApp({ license: license.service });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers every other call with 403 and the reason while the license is not valid, but still lets people sign in', async () => {
    const res = await t.call('POST', '/api/masters/products', t.adminToken, { name: 'Salt' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(
      /^The license expired on \d{4}-\d{2}-\d{2} and its grace period ended on/,
    );
    expect(await t.login('admin@test.local', 'admin-password-1')).toBeTruthy();
  });

  it('picks up a new license on retry, records the check, and opens again', async () => {
    const retryBefore = await t.call('POST', '/api/auth/retry-license-check', t.adminToken);
    expect(retryBefore.statusCode).toBe(200);
    expect(retryBefore.json().isValid).toBe(false);
    await license.sign({});
    const retry = await t.call('POST', '/api/auth/retry-license-check', t.adminToken);
    expect(retry.json()).toMatchObject({
      isValid: true,
      reason: null,
      config: { status: 'Active', type: 'Trial' },
    });
    expect((await t.call('POST', '/api/masters/products', t.adminToken, { name: 'Salt' })).statusCode).toBe(
      201,
    );
    const checks = await t.eventStore.readStream('system-license');
    expect(checks.map((e) => (e.data as { is_valid: boolean }).is_valid)).toEqual([false, true]);
  });

  it('needs a signed-in user to retry', async () => {
    expect((await t.call('POST', '/api/auth/retry-license-check')).statusCode).toBe(401);
  });
});

/**
 * Issue #27: the License Invalid page, and its Retry button, is what every signed-in user sees
 * while the license is not valid, so every role may re-check it; the policy's 'license-check'
 * area is what says so, and the route asks it.
 */
describe('who may retry the license check', () => {
  let t: CommandTestApp;
  let license: Awaited<ReturnType<typeof testLicense>>;
  const tokens: Partial<Record<Role, string>> = {};
  beforeAll(async () => {
    license = await testLicense();
    t = await commandTestApp({ license: license.service });
    tokens.Admin = t.adminToken;
    for (const role of ROLES.filter((r) => r !== 'Admin')) {
      const email = `${role.toLowerCase()}@test.local`;
      const res = await t.call('POST', '/api/masters/users', t.adminToken, {
        name: role,
        email,
        password: 'secret-pw-1',
        role,
      });
      expect(res.statusCode, res.body).toBe(201);
      tokens[role] = await t.login(email, 'secret-pw-1');
    }
    // The license is replaced by one that expired past its grace period: not valid from the retry on.
    await license.sign({
      expires_at: new Date(Date.now() - 10 * 86_400_000).toISOString(),
      grace_period_days: 3,
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('is allowed to every role, by the policy the route asks', () => {
    for (const role of ROLES) expect(mayWrite(role, 'license-check'), role).toBe(true);
  });

  it.each(ROLES)('lets a signed-in %s re-check an invalid license, and then a valid one', async (role) => {
    const invalid = await t.call('POST', '/api/auth/retry-license-check', tokens[role]);
    expect(invalid.statusCode, invalid.body).toBe(200);
    expect(invalid.json()).toMatchObject({ isValid: false, reason: expect.stringMatching(/expired/) });
    // The re-check opens nothing else: other calls still answer the license's reason.
    const write = await t.call('POST', '/api/masters/products', tokens[role], { name: 'Salt' });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toMatch(/^The license expired/);

    await license.sign({});
    const valid = await t.call('POST', '/api/auth/retry-license-check', tokens[role]);
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.json().isValid).toBe(true);
    await license.sign({
      expires_at: new Date(Date.now() - 10 * 86_400_000).toISOString(),
      grace_period_days: 3,
    });
  });
});

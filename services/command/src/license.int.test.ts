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

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from './standalone.ts';

describe('BAHI_DEMO=1: the demo business', () => {
  let dir: string;
  let bahi: Standalone | undefined;
  afterAll(async () => {
    await bahi?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is loaded once on an empty store, through the command routes, and reads back in the reports', async () => {
    dir = await mkdtemp(join(tmpdir(), 'bahi-demo-'));
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      BAHI_DATA_DIR: join(dir, 'data'),
      BAHI_FRONTENDS_DIR: join(dir, 'none'),
      BAHI_DEMO: '1',
    };
    const first = await startStandalone(env, { logger: false });
    bahi = first;
    expect(first.demo?.writes).toBeGreaterThan(800);
    const login = await fetch(`${first.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: bahi.config.BAHI_ADMIN_EMAIL,
        password: bahi.config.BAHI_ADMIN_PASSWORD,
      }),
    });
    const { token } = (await login.json()) as { token: string };
    const head = (await (await fetch(`${first.url}/api/ready`)).json()) as {
      eventStore: { headPosition: string };
    };
    const get = async (path: string) =>
      (
        await fetch(`${first.url}/api${path}`, {
          headers: { authorization: `Bearer ${token}`, 'x-bahi-position': head.eventStore.headPosition },
        })
      ).json() as Promise<{
        totalItems?: number;
        [k: string]: unknown;
      }>;
    expect((await get('/masters/funders')).totalItems).toBe(12);
    expect((await get('/transactions/purchases?limit=1')).totalItems).toBe(240);
    const dashboard = await get('/reports/dashboard-summary');
    expect(dashboard.totalFunderBalance).not.toBe('0.00');
    expect(Object.keys(await get('/reports/stock'))).toHaveLength(3);
    await first.stop();
    bahi = undefined;
    const second = await startStandalone(env, { logger: false });
    bahi = second;
    expect(second.demo).toBeUndefined(); // not loaded twice
  }, 180_000);
});

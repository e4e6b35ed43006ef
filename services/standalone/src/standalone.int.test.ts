import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from './standalone.ts';

describe('standalone serves the built frontends and the API on one port', () => {
  let dir: string;
  let bahi: Standalone;
  const get = (path: string) => fetch(`${bahi.url}${path}`);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bahi-standalone-'));
    const fe = join(dir, 'frontends');
    await mkdir(join(fe, 'shell', 'dist', 'assets'), { recursive: true });
    await mkdir(join(fe, 'masters', 'dist'), { recursive: true });
    await writeFile(join(fe, 'shell', 'dist', 'index.html'), '<!doctype html><title>SHELL</title>');
    await writeFile(join(fe, 'shell', 'dist', 'assets', 'app.1a2b.js'), 'console.log("app")');
    await writeFile(join(fe, 'masters', 'dist', 'remoteEntry.js'), 'var masters;');
    bahi = await startStandalone(
      { PORT: '0', HOST: '127.0.0.1', BAHI_DATA_DIR: join(dir, 'data'), BAHI_FRONTENDS_DIR: fe },
      { logger: false },
    );
  }, 60_000);
  afterAll(async () => {
    await bahi?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the shell at / and for client-side routes, never cached', async () => {
    for (const path of ['/', '/masters/cities', '/reports/ledger/Funder/42']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('SHELL');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache and remotes under /remotes/<name>/', async () => {
    const asset = await get('/assets/app.1a2b.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
    const entry = await get('/remotes/masters/remoteEntry.js');
    expect(entry.status).toBe(200);
    expect(await entry.text()).toBe('var masters;');
    expect(entry.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing file with 404 and an unknown API route with a JSON 404', async () => {
    expect((await get('/remotes/masters/missing.js')).status).toBe(404);
    expect((await get('/assets/nope.css')).status).toBe(404);
    const anonymous = await get('/api/nope');
    expect(anonymous.status).toBe(401); // no hint of which routes exist before signing in
    expect(await anonymous.json()).toEqual({ message: 'You are not signed in.' });
    const login = await fetch(`${bahi.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: bahi.config.BAHI_ADMIN_EMAIL,
        password: bahi.config.BAHI_ADMIN_PASSWORD,
      }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const api = await fetch(`${bahi.url}/api/nope`, { headers: { authorization: `Bearer ${token}` } });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ message: 'No route for GET /api/nope' });
  });

  it('answers health and readiness on the same port', async () => {
    expect(await (await get('/api/health')).json()).toEqual({ status: 'ok', service: 'standalone' });
    const ready = await (await get('/api/ready')).json();
    expect(ready).toMatchObject({ status: 'ready', eventStore: { kind: 'pglite' } });
  });
});

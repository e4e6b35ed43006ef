/**
 * A replay storm on standalone (issue #27.4): the app as its own process on a seeded PGlite
 * data directory; 40 Viewers each open 5 live streams with `Last-Event-ID: 1` (200 streams
 * replaying the log's last positions at once), and while they catch up a read and a write
 * are timed, one pair at a time by a process of their own, until every stream has caught up.
 *
 *   npm run replay-storm --workspace bench
 *
 * CHECKOUT=<another checkout> runs that checkout's standalone instead (a worktree of main, for
 * the figure before a change), on a copy of the same seeded data. EVENTS (12,000): how many
 * positions the seed writes (more than the stream's replay window of 10,000). USERS (40) x
 * PER_USER (5) streams. STORM_S (90): how long the storm may last before it is cut off. The seed
 * is kept in SEED_DIR (/tmp/bahi-replay-storm-seed-<EVENTS>) and copied for each run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cp, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = resolve(import.meta.dirname, '../..');
const CHECKOUT = resolve(process.env.CHECKOUT ?? ROOT);
const EVENTS = Number(process.env.EVENTS ?? 12_000);
const USERS = Number(process.env.USERS ?? 40);
const PER_USER = Number(process.env.PER_USER ?? 5);
const STORM_S = Number(process.env.STORM_S ?? 90);
const SEED_DIR = process.env.SEED_DIR ?? join(os.tmpdir(), `bahi-replay-storm-seed-${EVENTS}`);
const ADMIN = { email: 'admin@bahi.local', password: 'bahi-admin-2026' };
const PASSWORD = 'storm-password';

const log = (message: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
const ms = (n: number) => Math.round(n);
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : Number.NaN;
};

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  return port;
}

/** The standalone app of `checkout` as its own process, on `dataDir`. */
async function startApp(checkout: string, dataDir: string) {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(checkout, 'services/standalone/src/main.ts')],
    {
      cwd: checkout,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        BAHI_DATA_DIR: dataDir,
        BAHI_FRONTENDS_DIR: join(dataDir, 'no-frontends'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`standalone exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error('standalone did not become ready in 120 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await once(child, 'exit');
    clearTimeout(killer);
  };
  return { url, stop };
}

async function call(url: string, token: string | undefined, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const json = (await res.json()) as Record<string, unknown> & { token?: string; position?: string };
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
const login = async (url: string, email: string, password: string) =>
  (await call(url, undefined, 'POST', '/auth/login', { email, password })).token!;

/** The seeded data directory: USERS Viewers, then products until the log holds EVENTS positions. */
async function seed(): Promise<void> {
  if (await stat(join(SEED_DIR, 'seeded')).catch(() => undefined)) return;
  await rm(SEED_DIR, { recursive: true, force: true });
  log(`seeding ${SEED_DIR} (${EVENTS} positions) with ${CHECKOUT}`);
  const app = await startApp(CHECKOUT, SEED_DIR);
  try {
    const admin = await login(app.url, ADMIN.email, ADMIN.password);
    for (let u = 0; u < USERS; u++)
      await call(app.url, admin, 'POST', '/masters/users', {
        name: `Storm Viewer ${u}`,
        email: `storm${u}@x.io`,
        password: PASSWORD,
        role: 'Viewer',
      });
    let head = 0n;
    let n = 0;
    while (head < BigInt(EVENTS)) {
      const writes = await Promise.all(
        Array.from({ length: 8 }, () =>
          call(app.url, admin, 'POST', '/masters/products', { name: `Seed product ${++n}` }),
        ),
      );
      head = writes.reduce((max, w) => (BigInt(w.position!) > max ? BigInt(w.position!) : max), head);
      if (n % 2000 < 8) log(`seeded ${n} products, head ${head}`);
    }
  } finally {
    await app.stop();
  }
  await import('node:fs/promises').then((fs) => fs.writeFile(join(SEED_DIR, 'seeded'), ''));
}

/** One replaying stream: when its headers came, its `ready`, and the last position it heard. */
function openStream(url: string, token: string, started: number, signal: AbortSignal) {
  const stream = {
    headersMs: Number.NaN,
    status: 0,
    refusal: '',
    readyMs: Number.NaN,
    missed: false,
    lastId: 0n,
    caughtUpMs: Number.NaN,
    messages: 0,
  };
  const done = (async () => {
    const res = await fetch(`${url}/api/events`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${token}`, 'last-event-id': '1' },
      signal,
    });
    stream.headersMs = performance.now() - started;
    stream.status = res.status;
    if (res.status !== 200) {
      stream.refusal = `${res.headers.get('retry-after') ?? '-'} ${await res.text()}`;
      return stream;
    }
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const id = /^id: ?(\d+)$/m.exec(block)?.[1];
        if (/^event: ?ready$/m.test(block)) {
          stream.readyMs = performance.now() - started;
          stream.missed = block.includes('"missed":true');
        }
        if (id) {
          stream.messages++;
          stream.lastId = BigInt(id);
        }
      }
      if (Number.isNaN(stream.caughtUpMs) && stream.lastId >= target)
        stream.caughtUpMs = performance.now() - started;
    }
    return stream;
  })().catch((error: Error) => {
    if (error.name !== 'AbortError' && !stream.refusal) stream.refusal = error.message;
    return stream;
  });
  return { stream, done };
}

let target = 0n;

/**
 * A read and a write sent together, timed by a process of their own: this one is busy reading
 * 200 streams, and its own event loop's lag is not the server's latency.
 */
const PROBE = `
const [url, token, name] = process.argv.slice(1);
const timed = (path, init) => {
  const t0 = performance.now();
  return fetch(url + '/api' + path, { ...init, signal: AbortSignal.timeout(30000) }).then(async (r) => {
    await r.text();
    if (r.status >= 300) throw new Error(path + ': ' + r.status);
    return Math.round(performance.now() - t0);
  });
};
const auth = { authorization: 'Bearer ' + token };
Promise.allSettled([
  timed('/masters/products?limit=15', { headers: auth }),
  timed('/masters/products', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name }) }),
]).then(([read, write]) => {
  const error = [read, write].filter((x) => x.status === 'rejected').map((x) => String(x.reason.message)).join('; ');
  console.log(JSON.stringify({ readMs: read.value ?? null, writeMs: write.value ?? null, ...(error ? { error } : {}) }));
});`;
async function probe(url: string, token: string, name: string) {
  const child = spawn(process.execPath, ['-e', PROBE, url, token, name], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (chunk) => {
    out += chunk;
  });
  await once(child, 'exit');
  return JSON.parse(out) as { readMs: number | null; writeMs: number | null; error?: string };
}

await seed();
const dataDir = await mkdtemp(join(os.tmpdir(), 'bahi-replay-storm-'));
await cp(SEED_DIR, dataDir, { recursive: true });
log(`storm on ${CHECKOUT} (data copied to ${dataDir})`);
const app = await startApp(CHECKOUT, dataDir);
try {
  const admin = await login(app.url, ADMIN.email, ADMIN.password);
  const tokens: string[] = [];
  for (let u = 0; u < USERS; u++) tokens.push(await login(app.url, `storm${u}@x.io`, PASSWORD));
  // The first product write of this run is the last position a Viewer hears before the storm.
  target = BigInt(
    (await call(app.url, admin, 'POST', '/masters/products', { name: 'Before the storm' })).position!,
  );
  await new Promise((r) => setTimeout(r, 1000));

  const abort = new AbortController();
  const started = performance.now();
  const streams = tokens.flatMap((token) =>
    Array.from({ length: PER_USER }, () => openStream(app.url, token, started, abort.signal)),
  );
  const samples: Array<{ atMs: number; readMs: number | null; writeMs: number | null; error?: string }> = [];
  const allCaughtUp = () =>
    streams.every(
      (s) => s.stream.status !== 0 && (s.stream.status !== 200 || !Number.isNaN(s.stream.caughtUpMs)),
    );
  let k = 0;
  await new Promise((r) => setTimeout(r, 500));
  while (performance.now() - started < STORM_S * 1000) {
    const atMs = performance.now() - started;
    const sample = { atMs, ...(await probe(app.url, admin, `Storm product ${k}`)) };
    samples.push(sample);
    log(
      `t=${(atMs / 1000).toFixed(1)} s read ${sample.readMs} ms write ${sample.writeMs} ms${sample.error ? ` (${sample.error})` : ''}; ` +
        `${streams.filter((s) => s.stream.status).length} answered, ${streams.filter((s) => !Number.isNaN(s.stream.caughtUpMs)).length} caught up`,
    );
    k++;
    if (allCaughtUp() && samples.length >= 3) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  abort.abort();
  const results = await Promise.all(streams.map((s) => s.done));
  const opened = results.filter((s) => s.status === 200);
  const headers = results.filter((s) => s.status).map((s) => s.headersMs);
  const caught = opened.filter((s) => !Number.isNaN(s.caughtUpMs)).map((s) => s.caughtUpMs);
  const report = {
    checkout: CHECKOUT,
    date: new Date().toISOString(),
    machine: `${os.cpus()[0]?.model ?? '?'} x${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`,
    loadavg: os.loadavg().map((x) => x.toFixed(2)),
    seedPositions: target.toString(),
    streams: results.length,
    statuses: Object.fromEntries(
      [...new Set(results.map((s) => s.status))].map((st) => [
        st,
        results.filter((s) => s.status === st).length,
      ]),
    ),
    refusals: [...new Set(results.map((s) => s.refusal).filter(Boolean))].slice(0, 3),
    headersMs: {
      p50: ms(quantile(headers, 0.5)),
      p95: ms(quantile(headers, 0.95)),
      max: ms(Math.max(...headers)),
    },
    missed: opened.filter((s) => s.missed).length,
    caughtUp: caught.length,
    caughtUpMs: { p50: ms(quantile(caught, 0.5)), max: ms(Math.max(...caught)) },
    messagesPerStream: ms(
      quantile(
        opened.map((s) => s.messages),
        0.5,
      ),
    ),
    samples: samples.map((s) => ({ ...s, atMs: ms(s.atMs) })),
    worstReadMs: Math.max(...samples.map((s) => s.readMs ?? 30_000)),
    worstWriteMs: Math.max(...samples.map((s) => s.writeMs ?? 30_000)),
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await app.stop();
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * Start-up of the standalone app (issue #28): from spawning `node services/standalone/dist/main.mjs`
 * (what `npm start` runs after its build) to the first 200 from /api/health, on an empty data
 * directory and then again on the same directory (a restart). Each run is a process of its own:
 * wall time to healthy, the process's CPU time (user + system, from /proc) at that moment, its RSS
 * then and RSS_SETTLE_MS (3000) later (the projector's catch-up and the demo may still run after
 * the port opens), and its peak RSS (VmHWM).
 *
 *   npm run build:services -- standalone && npm run startup --workspace bench
 *
 * RUNS (5): pairs of (empty dir, restart). ENTRY (a path from the repository root): another built main.mjs to measure instead (a
 * copy of main's, for the figure before a change), run from this checkout (same node_modules, same
 * frontends). BASE_ENTRY: measured too, one run of each alternately, so both see the same
 * machine. The frontends are served from this checkout's frontends/ (build them first: npm run
 * build:frontends, as `npm start` does). The machine is shared: the load average is printed at the
 * start and the end, and CPU time beside wall time.
 *
 * The processes get a cache directory of their own (XDG_CACHE_HOME, removed at the end), so this
 * checkout's first empty-dir start makes the data directory template (the first start after an
 * install, or after a migration changed) and the later ones copy it: the first is printed apart.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../../test/processes.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = resolve(ROOT, process.env.ENTRY ?? 'services/standalone/dist/main.mjs');
const BASE_ENTRY = process.env.BASE_ENTRY ? resolve(ROOT, process.env.BASE_ENTRY) : undefined;
const RUNS = Number(process.env.RUNS ?? 5);
const RSS_SETTLE_MS = Number(process.env.RSS_SETTLE_MS ?? 3000);
const CLK_TCK = 100; // Linux's USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s

const loadavg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** User + system CPU seconds of a live process. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14, 15)
}

/** VmRSS and VmHWM (peak) of a live process, in MB. */
function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

interface Run {
  wallS: number;
  cpuS: number;
  rssAtHealthy: number;
  rssSettled: number;
  peak: number;
  banner: string;
}

const CACHE = await mkdtemp(join(os.tmpdir(), 'bahi-startup-cache-'));

async function startOnce(entry: string, dataDir: string): Promise<Run> {
  const port = await freePort();
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      XDG_CACHE_HOME: CACHE,
      PORT: String(port),
      HOST: '127.0.0.1',
      BAHI_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  let exited = false;
  const exit = once(child, 'exit').then(() => {
    exited = true;
  });
  try {
    for (;;) {
      if (exited) throw new Error(`the app exited before it was healthy:\n${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (performance.now() - t0 > 600_000) throw new Error(`not healthy after 600 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const wallS = (performance.now() - t0) / 1000;
    const cpuS = cpuSeconds(child.pid!);
    const rssAtHealthy = memoryMb(child.pid!).rss;
    await new Promise((r) => setTimeout(r, RSS_SETTLE_MS));
    const settled = memoryMb(child.pid!);
    const banner = /started in [\d.]+ s/.exec(output)?.[0] ?? '(no banner)';
    return { wallS, cpuS, rssAtHealthy, rssSettled: settled.rss, peak: settled.peak, banner };
  } finally {
    child.kill('SIGTERM');
    await Promise.race([exit, new Promise((r) => setTimeout(r, 15_000))]);
    if (!exited) child.kill('SIGKILL');
    await exit;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

function summary(label: string, runs: Run[]) {
  const f = (xs: number[], digits: number) =>
    `median ${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
  console.log(
    `${label.padEnd(34)} wall ${f(
      runs.map((r) => r.wallS),
      2,
    )} s | cpu ${f(
      runs.map((r) => r.cpuS),
      2,
    )} s | rss at healthy ${f(
      runs.map((r) => r.rssAtHealthy),
      0,
    )} MB | rss +${RSS_SETTLE_MS / 1000} s ${f(
      runs.map((r) => r.rssSettled),
      0,
    )} MB | peak ${f(
      runs.map((r) => r.peak),
      0,
    )} MB`,
  );
}

const entries = BASE_ENTRY ? [BASE_ENTRY, ENTRY] : [ENTRY];
console.log(`# start-up, ${new Date().toISOString()}`);
console.log(
  `machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, node ${process.version}`,
);
console.log(`load average at the start: ${loadavg()}`);
const results = new Map(entries.map((e) => [e, { first: [] as Run[], restart: [] as Run[] }]));
for (let i = 0; i < RUNS; i++) {
  for (const entry of entries) {
    const dataDir = await mkdtemp(join(os.tmpdir(), 'bahi-startup-'));
    try {
      const first = await startOnce(entry, dataDir);
      const restart = await startOnce(entry, dataDir);
      results.get(entry)!.first.push(first);
      results.get(entry)!.restart.push(restart);
      const line = (r: Run) =>
        `${r.wallS.toFixed(2)} s wall, ${r.cpuS.toFixed(2)} s cpu, rss ${r.rssAtHealthy} -> ${r.rssSettled} MB (peak ${r.peak}), ${r.banner}`;
      console.log(`run ${i + 1} ${entry === BASE_ENTRY ? 'base' : 'this'}: empty dir ${line(first)}`);
      console.log(`run ${i + 1} ${entry === BASE_ENTRY ? 'base' : 'this'}: restart   ${line(restart)}`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
}
console.log(`load average at the end: ${loadavg()}`);
await rm(CACHE, { recursive: true, force: true });
for (const entry of entries) {
  const name = entry === BASE_ENTRY ? `base (${entry})` : `this (${entry})`;
  console.log(name);
  const first = results.get(entry)!.first;
  if (entry === ENTRY && first.length > 1) {
    summary('  empty data dir, no template yet', first.slice(0, 1));
    summary('  empty data dir -> healthy', first.slice(1));
  } else summary('  empty data dir -> healthy', first);
  summary('  restart -> healthy', results.get(entry)!.restart);
}

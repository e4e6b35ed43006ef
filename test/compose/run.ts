/**
 * npm run test:compose: docker-compose.yml on a real Docker engine, as an operator runs it
 * (test/compose/README.md). Not part of `npm test`: it needs a Docker engine, builds the image and
 * takes minutes.
 *
 * It starts dockerd when none answers (and stops only that one at the end), uses the public base
 * images when a registry answers and otherwise builds local stand-ins of them from a Debian
 * rootfs (test/compose/standins/, a test aid never shipped), brings the stack up with two copies
 * of command and query, checks what issue #26 asks, prints the figures and writes them to
 * test-results/compose-run.json, and tears down what it created (containers, networks, volumes,
 * its temp directory). Images stay, as the build cache of the next run.
 *
 * Exit 0 when every check passed, 1 otherwise (each check says what it saw).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateLicenseKeys, issueLicense } from '@bahi/server-kit';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const STANDINS = path.join(ROOT, 'test', 'compose', 'standins');
const ROOTFS_DIR = process.env.BAHI_STANDIN_ROOTFS ?? '/var/tmp/bahi-standins';
const PROJECT = 'bahicomposetest';
const STANDINS_ONLY = process.argv.includes('--standins-only');
const HEAVY_LOCK = '/tmp/bahi-heavy.lock';
const ADMIN = { email: 'admin@bahi.local', password: 'compose-test-admin-password' };
/**
 * The funder's name, in four scripts: the balances PDF must embed each one's font (the image
 * carries the report fonts' files alone, scripts/build-services.ts --image).
 */
const FUNDER = 'Funder 王小明 김민준 किशन محمد';
const FUNDER_FONTS = ['NotoSansHans', 'NotoSansKR', 'NotoSansDevanagari', 'NotoNaskhArabic'];
const OFFICIAL = ['node:22-bookworm-slim', 'postgres:15', 'redis:7', 'nginx:1.27'];
/** What debian's slim images leave out (dpkg path-excludes), the stand-in base leaves out too. */
const SLIM_EXCLUDES = [
  'usr/share/doc',
  'usr/share/man',
  'usr/share/info',
  'usr/share/locale',
  'usr/share/groff',
  'usr/share/lintian',
  'usr/share/linda',
];

// ---- small helpers ------------------------------------------------------------------------

const started = Date.now();
const log = (line: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => Math.round(ms / 100) / 10;

interface Ran {
  code: number | null;
  out: string;
  ms: number;
}

/** Runs a command to its end; its output is kept (and shown when `show`). */
function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; show?: boolean; input?: string; cwd?: string } = {},
): Promise<Ran> {
  const at = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    const take = (chunk: Buffer) => {
      out += chunk.toString();
      if (options.show) process.stdout.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => {
      out += String(error);
    });
    // A command that exits before reading its input closes the pipe: not an error of the run.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    child.on('close', (code) => resolve({ code, out, ms: Date.now() - at }));
  });
}

/**
 * A heavy command (image builds) under the machine's shared lock, when flock exists, unless the
 * whole run already holds it (`flock /tmp/bahi-heavy.lock env BAHI_HEAVY_LOCK_HELD=1 npm run
 * test:compose`: a second flock on the same file would wait for the first forever).
 */
const heavy = (command: string, args: string[], options: Parameters<typeof run>[2] = {}) =>
  existsSync('/usr/bin/flock') && process.env.BAHI_HEAVY_LOCK_HELD !== '1'
    ? run('flock', [HEAVY_LOCK, command, ...args], options)
    : run(command, args, options);

async function must(command: string, args: string[], options: Parameters<typeof run>[2] = {}): Promise<Ran> {
  const result = await run(command, args, options);
  if (result.code !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.out.slice(-4000)}`);
  return result;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;

// ---- what the run found -------------------------------------------------------------------

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}
const checks: Check[] = [];
const figures: Record<string, unknown> = {};
function check(name: string, ok: boolean, detail: string) {
  checks.push({ name, ok, detail });
  log(`${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
}
/** A step that throws fails as a check; the run goes on to the next. */
async function step(name: string, body: () => Promise<void>) {
  log(`-- ${name}`);
  try {
    await body();
  } catch (error) {
    check(name, false, `threw: ${(error as Error).stack ?? error}`);
  }
}

// ---- the Docker engine and the base images ------------------------------------------------

let dockerd: ChildProcess | undefined;

async function ensureDockerd() {
  if ((await run('docker', ['info'])).code === 0) {
    log('a Docker engine answers: using it');
    return;
  }
  log('no Docker engine answers: starting dockerd (log in /tmp/dockerd.log)');
  const { openSync } = await import('node:fs');
  const logFd = openSync('/tmp/dockerd.log', 'a');
  dockerd = spawn('dockerd', [], { stdio: ['ignore', logFd, logFd], detached: true });
  for (let i = 0; i < 60; i++) {
    if ((await run('docker', ['info'])).code === 0) return;
    if (dockerd.exitCode !== null) break;
    await sleep(500);
  }
  throw new Error(`dockerd did not start (exit ${dockerd.exitCode}); see /tmp/dockerd.log`);
}

async function stopDockerd() {
  if (!dockerd || dockerd.exitCode !== null) return;
  log(`stopping the dockerd this run started (pid ${dockerd.pid})`);
  const exited = new Promise((resolve) => dockerd!.once('exit', resolve));
  dockerd.kill('SIGTERM');
  await Promise.race([exited, sleep(30_000)]);
}

const imageExists = async (name: string) => (await run('docker', ['image', 'inspect', name])).code === 0;

/** True when the public base images can be had (present, or pulled now). */
async function officialImages(): Promise<boolean> {
  for (const image of OFFICIAL) {
    if (await imageExists(image)) continue;
    const pulled = await run('timeout', ['60', 'docker', 'pull', '-q', image]);
    if (pulled.code !== 0) {
      log(`cannot pull ${image} (${pulled.out.trim().split('\n').pop()}): building local stand-ins`);
      return false;
    }
  }
  return true;
}

/** The stand-ins (test/compose/standins/*): a debootstrap rootfs imported, then four small builds. */
async function buildStandins() {
  const at = Date.now();
  if (!(await imageExists('bahi-standin/debian:bookworm'))) {
    const rootfs = path.join(ROOTFS_DIR, 'rootfs');
    if (!existsSync(path.join(rootfs, 'etc', 'debian_version'))) {
      if ((await run('sh', ['-c', 'command -v debootstrap'])).code !== 0) {
        log('installing debootstrap (apt-get)');
        await must('apt-get', ['install', '-y', 'debootstrap']);
      }
      log(`debootstrap bookworm into ${rootfs} (Debian's mirror)`);
      await rm(rootfs, { recursive: true, force: true });
      await mkdir(ROOTFS_DIR, { recursive: true });
      await must('debootstrap', ['--variant=minbase', 'bookworm', rootfs, 'http://deb.debian.org/debian']);
    }
    // Slim, as debian:bookworm-slim (the official node image's base) is: no apt lists, no
    // docs, man pages or translations, and dpkg told to leave them out of what the stand-ins
    // install later (the same path-excludes as the slim variant's). 75 MB instead of 167 MB:
    // the base under the figure of the image's size is then the official one's size.
    await mkdir(path.join(rootfs, 'etc', 'dpkg', 'dpkg.cfg.d'), { recursive: true });
    await writeFile(
      path.join(rootfs, 'etc', 'dpkg', 'dpkg.cfg.d', 'docker-slim'),
      `${SLIM_EXCLUDES.map((dir) => `path-exclude /${dir}/*`).join('\n')}\n`,
    );
    // And apt told to keep no package cache (its *.bin files are 60 MB), as the official
    // Debian images' docker-clean does.
    await mkdir(path.join(rootfs, 'etc', 'apt', 'apt.conf.d'), { recursive: true });
    await writeFile(
      path.join(rootfs, 'etc', 'apt', 'apt.conf.d', 'docker-clean'),
      [
        'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };',
        'APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };',
        'Dir::Cache::pkgcache "";',
        'Dir::Cache::srcpkgcache "";',
        '',
      ].join('\n'),
    );
    log('docker import of the rootfs, slimmed, as bahi-standin/debian:bookworm');
    await must('sh', [
      '-c',
      `tar -C '${rootfs}' ${['var/cache/apt', 'var/lib/apt/lists', ...SLIM_EXCLUDES].map((dir) => `--exclude='./${dir}/*'`).join(' ')} -c . | docker import -c 'CMD ["/bin/bash"]' - bahi-standin/debian:bookworm`,
    ]);
  }
  for (const [name, tag] of [
    ['postgres', '15'],
    ['redis', '7'],
    ['nginx', '1.22'],
  ] as const) {
    await mustHeavyBuild(`bahi-standin/${name}:${tag}`, path.join(STANDINS, name));
  }
  // node: this machine's own node and npm, and its trust store (the npm registry is reached
  // through a proxy whose CA it holds), copied into a build context beside the Dockerfile.
  const context = await mkdtemp(path.join(tmpdir(), 'bahi-standin-node-'));
  try {
    await cp(path.join(STANDINS, 'node', 'Dockerfile'), path.join(context, 'Dockerfile'));
    const node = (await must('sh', ['-c', 'readlink -f "$(command -v node)"'])).out.trim();
    await cp(node, path.join(context, 'node'));
    const npmDir = (await must('sh', ['-c', 'readlink -f "$(npm root -g)/npm"'])).out.trim();
    await cp(npmDir, path.join(context, 'npm'), { recursive: true });
    await cp('/etc/ssl/certs/ca-certificates.crt', path.join(context, 'host-ca-certificates.crt'));
    await mustHeavyBuild('bahi-standin/node:20', context);
  } finally {
    await rm(context, { recursive: true, force: true });
  }
  figures.standinsBuildSeconds = seconds(Date.now() - at);
}

async function mustHeavyBuild(tag: string, context: string) {
  // Built once, then reused (a rebuilt base would invalidate the image's whole build cache);
  // BAHI_STANDINS_REBUILD=1 builds them again.
  if (process.env.BAHI_STANDINS_REBUILD !== '1' && (await imageExists(tag))) {
    log(`${tag} is there: reused`);
    return;
  }
  const built = await heavy('docker', ['build', '-q', '-t', tag, context]);
  if (built.code !== 0) throw new Error(`docker build ${tag} failed:\n${built.out.slice(-4000)}`);
  log(`built ${tag} in ${seconds(built.ms)} s`);
}

// ---- the deployment -----------------------------------------------------------------------

let composeFiles: string[] = [];
let composeEnv: NodeJS.ProcessEnv = process.env;
let base = '';
let dir = '';

const compose = (args: string[], show = false) =>
  run('docker-compose', ['-p', PROJECT, ...composeFiles, ...args], { env: composeEnv, show });
const mustCompose = async (args: string[], show = false) => {
  const result = await compose(args, show);
  if (result.code !== 0)
    throw new Error(`docker-compose ${args.join(' ')} exited ${result.code}:\n${result.out.slice(-4000)}`);
  return result;
};
const containers = async (service: string) =>
  (await mustCompose(['ps', '-q', service])).out.split('\n').filter(Boolean);
const inspect = async (id: string, format: string) =>
  (await must('docker', ['inspect', '-f', format, id])).out.trim();

interface Reply {
  status: number;
  ms: number;
  type: string;
  body: Buffer;
  text(): string;
  json(): Record<string, unknown>;
}
let token = '';

async function api(
  method: string,
  urlPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const at = performance.now();
  try {
    const res = await fetch(`${base}${urlPath}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return reply(res.status, performance.now() - at, res.headers.get('content-type') ?? '', bytes);
  } catch (error) {
    // No answer at all (connection refused at the gateway's port, a timeout): status 0.
    return reply(0, performance.now() - at, '', Buffer.from(String(error)));
  }
}
function reply(status: number, ms: number, type: string, body: Buffer): Reply {
  return {
    status,
    ms,
    type,
    body,
    text: () => body.toString('utf8'),
    json: () => {
      try {
        return JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        return {};
      }
    },
  };
}

async function signIn() {
  const login = await api('POST', '/api/auth/login', ADMIN);
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${login.text()}`);
  token = login.json().token as string;
}

/** Polls `probe` every 250 ms until it returns true; the milliseconds it took, or -1 at `limitMs`. */
async function until(probe: () => Promise<boolean>, limitMs: number): Promise<number> {
  const at = Date.now();
  while (Date.now() - at < limitMs) {
    if (await probe()) return Date.now() - at;
    await sleep(250);
  }
  return -1;
}

async function waitHealthy(limitMs = 240_000) {
  const services = ['command', 'query', 'projector', 'reports-worker', 'gateway'];
  const ms = await until(async () => {
    for (const service of services) {
      for (const id of await containers(service)) {
        if ((await inspect(id, '{{.State.Health.Status}}')) !== 'healthy') return false;
      }
    }
    return true;
  }, limitMs);
  if (ms < 0) {
    const ps = await compose(['ps']);
    const logs = await compose(['logs', '--tail', '40']);
    throw new Error(
      `not every service became healthy in ${limitMs / 1000} s:\n${ps.out}\n${logs.out.slice(-6000)}`,
    );
  }
  return ms;
}

const masters: { city?: string; funder?: string; godown?: string; product?: string } = {};
const mustWrite = async (urlPath: string, body: Record<string, unknown>) => {
  const r = await api('POST', urlPath, body, { 'idempotency-key': randomUUID() });
  if (r.status !== 201 && r.status !== 200)
    throw new Error(`POST ${urlPath} answered ${r.status}: ${r.text()}`);
  return r.json();
};

// ---- the run --------------------------------------------------------------------------------

async function main() {
  await ensureDockerd();
  const standins = !(await officialImages());
  figures.baseImages = standins ? 'local stand-ins (test/compose/standins)' : 'official';
  if (standins) await buildStandins();
  if (STANDINS_ONLY) {
    // `npm run test:compose -- --standins-only`: the base images for a deployment on a machine
    // that reaches no registry (README, Distributed), and nothing else. The engine stays up.
    log(
      standins
        ? 'stand-ins ready: add COMPOSE_FILE=docker-compose.yml:test/compose/standins.override.yml to .env'
        : 'the official base images are there: no stand-ins needed',
    );
    dockerd = undefined;
    return;
  }
  composeFiles = [
    '-f',
    'docker-compose.yml',
    ...(standins ? ['-f', 'test/compose/standins.override.yml'] : []),
  ];

  // What an operator prepares (README, Distributed): the secrets, a license, the three paths.
  dir = await mkdtemp(path.join(tmpdir(), 'bahi-compose-run-'));
  await chmod(dir, 0o755);
  await mkdir(path.join(dir, 'license'));
  const keys = await generateLicenseKeys();
  await writeFile(path.join(dir, 'license', 'public.pem'), keys.publicKeyPem);
  await writeFile(
    path.join(dir, 'license', 'license.jws'),
    await issueLicense(keys.privateKeyPem, {
      status: 'Active',
      type: 'Standard',
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      grace_period_days: 7,
      expiry_notification_days: 15,
    }),
  );
  await writeFile(path.join(dir, 'jwt_secret'), `${randomUUID()}${randomUUID()}\n`);
  await writeFile(path.join(dir, 'admin_password'), `${ADMIN.password}\n`);
  for (const file of ['jwt_secret', 'admin_password', 'license/public.pem', 'license/license.jws'])
    await chmod(path.join(dir, file), 0o644);
  await chmod(path.join(dir, 'license'), 0o755);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  composeEnv = {
    ...process.env,
    BAHI_JWT_SECRET_FILE: path.join(dir, 'jwt_secret'),
    BAHI_ADMIN_PASSWORD_FILE: path.join(dir, 'admin_password'),
    BAHI_LICENSE_DIR: path.join(dir, 'license'),
    BAHI_ADMIN_EMAIL: ADMIN.email,
    BAHI_GATEWAY_PORT: String(port),
  };
  for (const name of ['ESDB_URL', 'COMPOSE_PROFILES', 'DATABASE_URL', 'REDIS_URL']) delete composeEnv[name];

  await step('build', async () => {
    // One image for every service: compose builds it (the first build; the others are cached).
    const built = await heavy('docker-compose', ['-p', PROJECT, ...composeFiles, 'build'], {
      env: composeEnv,
    });
    if (built.code !== 0) throw new Error(built.out.slice(-6000));
    figures.buildSeconds = seconds(built.ms);
    const size = Number(await inspect('bahi:local', '{{.Size}}'));
    const baseImage = standins ? 'bahi-standin/node:20' : OFFICIAL[0]!;
    const baseSize = Number(await inspect(baseImage, '{{.Size}}'));
    figures.imageMB = Math.round(size / 1e6);
    figures.baseImageMB = Math.round(baseSize / 1e6);
    figures.imageAboveBaseMB = Math.round((size - baseSize) / 1e6);
    const du = await run('docker', [
      'run',
      '--rm',
      '--entrypoint',
      'sh',
      'bahi:local',
      '-c',
      'du -sm /app/lib /app/node_modules /app/services /app/frontends /app/scripts /usr/local/bin/node /usr/local/lib/node_modules 2>/dev/null; ' +
        'du -sm /app/node_modules/@*/* /app/node_modules/[!@]* 2>/dev/null | sort -rn | head -12',
    ]);
    figures.imageDu = du.out.trim();
    // The Dockerfile's own layers (the final stage's), apart from the base image's.
    const history = (await must('docker', ['history', '--format', '{{.Size}}\t{{.CreatedBy}}', 'bahi:local']))
      .out;
    const baseLayers = (await must('docker', ['history', '-q', baseImage])).out
      .split('\n')
      .filter(Boolean).length;
    const lines = history.split('\n').filter(Boolean);
    figures.imageLayers = lines
      .slice(0, lines.length - baseLayers)
      .map((l) => l.replace(/\s+/g, ' ').slice(0, 140))
      .filter((l) => !l.startsWith('0B '));
    check(
      'build',
      true,
      `bahi:local built in ${figures.buildSeconds} s: ${figures.imageMB} MB, of which ${figures.baseImageMB} MB is the base image (${baseImage}) and ${figures.imageAboveBaseMB} MB the Dockerfile's layers`,
    );
  });

  await step('up with two copies of command and query', async () => {
    const up = await mustCompose(['up', '-d', '--scale', 'command=2', '--scale', 'query=2']);
    const healthyMs = await waitHealthy();
    figures.upSeconds = seconds(up.ms + healthyMs);
    const copies = {
      command: (await containers('command')).length,
      query: (await containers('query')).length,
    };
    check(
      'up',
      copies.command === 2 && copies.query === 2,
      `every service healthy ${figures.upSeconds} s after up; copies ${JSON.stringify(copies)}`,
    );
  });

  await step('the shell through the gateway', async () => {
    const shell = await api('GET', '/');
    const manifest = await api('GET', '/remotes/masters/mf-manifest.json');
    const metrics = await api('GET', '/metrics');
    check(
      'shell',
      shell.status === 200 &&
        shell.type.startsWith('text/html') &&
        manifest.status === 200 &&
        !metrics.text().includes('bahi_http_request'),
      `GET / ${shell.status} ${shell.type}; a remote's mf-manifest.json ${manifest.status}; GET /metrics from outside is the shell, not the services' metrics: ${!metrics.text().includes('bahi_http_request')}`,
    );
  });

  await step('sign-in and a purchase through the gateway', async () => {
    await signIn();
    masters.city = (
      await mustWrite('/api/masters/cities', { name: 'Kabul', currency_name: 'INR', rate: '1' })
    ).id as string;
    masters.funder = (await mustWrite('/api/masters/funders', { name: FUNDER, city_id: masters.city }))
      .id as string;
    masters.godown = (await mustWrite('/api/masters/godowns', { name: 'Godown A' })).id as string;
    masters.product = (await mustWrite('/api/masters/products', { name: 'Almonds' })).id as string;
    const purchase = await mustWrite('/api/transactions/purchases', {
      type: 'Godown',
      purchase_date: new Date().toISOString().slice(0, 10),
      city_id: masters.city,
      funder_id: masters.funder,
      product_id: masters.product,
      godown_id: masters.godown,
      rate: '12.50',
      quantity: '40',
    });
    const id = purchase.id as string;
    const seenMs = await until(
      async () => (await api('GET', '/api/transactions/purchases')).text().includes(id),
      30_000,
    );
    check(
      'purchase',
      seenMs >= 0,
      `signed in as ${ADMIN.email}; purchase ${id} at position ${purchase.position} listed by query ${seenMs} ms later`,
    );
  });

  await step('a PDF through the gateway', async () => {
    const pdf = await api('GET', '/api/reports/balances/download/pdf');
    // pdfkit writes font dictionaries uncompressed: "/BaseFont /ABCDEF+NotoSansHans-Regular".
    const embedded = FUNDER_FONTS.filter((font) => pdf.body.includes(`+${font}`));
    check(
      'pdf',
      pdf.status === 200 &&
        pdf.type === 'application/pdf' &&
        pdf.body.subarray(0, 5).toString() === '%PDF-' &&
        embedded.length === FUNDER_FONTS.length,
      `GET /api/reports/balances/download/pdf ${pdf.status} ${pdf.type}, ${pdf.body.length} bytes in ${Math.round(pdf.ms)} ms; fonts for "${FUNDER}" embedded: ${embedded.join(', ')} (of ${FUNDER_FONTS.join(', ')})${pdf.status === 200 ? '' : `; ${pdf.text().slice(0, 300)}`}`,
    );
  });

  await step('one copy of command and of query stopped', async () => {
    const [command1] = await containers('command');
    const [query1] = await containers('query');
    const times: number[] = [];
    const statuses = new Map<number, number>();
    let n = 0;
    // 200 requests, reads and writes in turn, from the moment `docker stop` is sent.
    const stopping = run('docker', ['stop', command1!, query1!]);
    for (let i = 0; i < 200; i++) {
      const r =
        i % 2 === 0
          ? await api('GET', '/api/masters/cities')
          : await api(
              'POST',
              '/api/masters/godowns',
              { name: `While stopped ${++n}` },
              { 'idempotency-key': randomUUID() },
            );
      times.push(r.ms);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    const stopped = await stopping;
    times.sort((a, b) => a - b);
    const p99 = Math.round(percentile(times, 99));
    const max = Math.round(times.at(-1)!);
    figures.copyStopped = {
      requests: 200,
      p50: Math.round(percentile(times, 50)),
      p99,
      max,
      statuses: Object.fromEntries(statuses),
      dockerStopSeconds: seconds(stopped.ms),
    };
    check(
      'copy stopped',
      max < 1000 && [...statuses.keys()].every((s) => s >= 200 && s < 300),
      `200 requests while one copy of each stopped: p50 ${figures.copyStopped && (figures.copyStopped as { p50: number }).p50} ms, p99 ${p99} ms, max ${max} ms, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    await must('docker', ['start', command1!, query1!]);
    await waitHealthy();
  });

  const addressesOf = async (service: string) => {
    const found = new Map<string, string>();
    for (const id of await containers(service))
      found.set(id, await inspect(id, '{{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}'));
    return found;
  };

  await step('a rolling update (deploy/update.sh) under reads and writes', async () => {
    // What README tells an operator to run to update a running deployment: every copy of
    // command, query, the projector and the worker replaced by a new container (a new address),
    // the gateway untouched, and not one request refused meanwhile.
    const before = new Map<string, string[]>();
    for (const service of ['command', 'query', 'projector', 'reports-worker'])
      before.set(service, await containers(service));
    const gatewayId = (await containers('gateway'))[0]!;
    const gatewayStarted = await inspect(gatewayId, '{{.State.StartedAt}}');
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let done = false;
    let n = 0;
    const times: number[] = [];
    const loop = async (writes: boolean) => {
      while (!done) {
        const r = writes
          ? await api(
              'POST',
              '/api/masters/godowns',
              { name: `During update ${++n}` },
              { 'idempotency-key': randomUUID() },
            )
          : await api('GET', '/api/masters/cities');
        times.push(r.ms);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status < 200 || r.status >= 300) failures.push(`${r.status} ${r.text().slice(0, 120)}`);
        await sleep(20);
      }
    };
    // What the gateway resolves meanwhile, asked from inside it about once a second (getent asks
    // Docker's DNS, as nginx does): each address in the answer for command and query must be a
    // copy whose healthcheck has passed. update.sh names a new copy only then; a copy that is
    // starting (not listening yet) must never be in the answer.
    const resolvedWhileStarting = new Set<string>();
    const resolved = new Set<string>();
    let samples = 0;
    const sampler = async () => {
      while (!done) {
        for (const service of ['command', 'query']) {
          const answer = await run('docker', ['exec', gatewayId, 'getent', 'ahostsv4', service]);
          const ids = (
            await run('docker', [
              'ps',
              '-aq',
              '--filter',
              `label=com.docker.compose.project=${PROJECT}`,
              '--filter',
              `label=com.docker.compose.service=${service}`,
            ])
          ).out
            .split('\n')
            .filter(Boolean);
          if (answer.code !== 0 || ids.length === 0) continue;
          const states = await run('docker', [
            'inspect',
            '-f',
            '{{.Name}} {{if .State.Health}}{{.State.Health.Status}}{{end}} {{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}',
            ...ids,
          ]);
          const byAddress = new Map<string, string>();
          for (const line of states.out.split('\n').filter(Boolean)) {
            const [name, status, ...addresses] = line.trim().split(/\s+/);
            for (const address of addresses) byAddress.set(address, `${name} ${status}`);
          }
          samples++;
          for (const address of new Set(answer.out.split('\n').map((l) => l.split(/\s+/)[0] ?? ''))) {
            if (!/^\d+\.\d+\.\d+\.\d+$/.test(address)) continue;
            const state = byAddress.get(address);
            resolved.add(`${service} ${address}`);
            if (state?.endsWith(' starting')) resolvedWhileStarting.add(`${address} (${state})`);
          }
        }
        await sleep(1000);
      }
    };
    const loops = [loop(false), loop(true), sampler()];
    const update = await heavy('sh', ['deploy/update.sh', '-p', PROJECT, ...composeFiles], {
      env: composeEnv,
    });
    done = true;
    await Promise.all(loops);
    if (update.code !== 0) throw new Error(update.out.slice(-4000));
    const replaced: string[] = [];
    for (const [service, ids] of before) {
      const now = await containers(service);
      if (now.length === ids.length && now.every((id) => !ids.includes(id))) replaced.push(service);
    }
    const sameGateway = (await inspect(gatewayId, '{{.State.StartedAt}}')) === gatewayStarted;
    times.sort((a, b) => a - b);
    figures.rollingUpdate = {
      seconds: seconds(update.ms),
      requests: times.length,
      statuses: Object.fromEntries(statuses),
      p99: Math.round(percentile(times, 99)),
      max: Math.round(times.at(-1) ?? 0),
      replaced,
      dnsSamples: samples,
      addressesResolved: resolved.size,
      resolvedWhileStarting: [...resolvedWhileStarting],
      named: update.out.split('\n').filter((l) => / now named /.test(l)),
    };
    check(
      'rolling update: no copy named before it is healthy',
      samples > 0 && resolvedWhileStarting.size === 0,
      `${samples} samples of the gateway's DNS answers for command and query during the update, ${resolved.size} addresses seen, of copies still starting: ${resolvedWhileStarting.size ? [...resolvedWhileStarting].join(', ') : 'none'}`,
    );
    check(
      'rolling update',
      sameGateway && replaced.length === 4 && failures.length === 0 && times.length > 0,
      `sh deploy/update.sh in ${seconds(update.ms)} s: every copy of ${replaced.join(', ')} replaced, gateway not restarted: ${sameGateway}; ${times.length} reads and writes meanwhile: ${JSON.stringify(Object.fromEntries(statuses))}, p99 ${(figures.rollingUpdate as { p99: number }).p99} ms, max ${(figures.rollingUpdate as { max: number }).max} ms${failures.length ? `; not 2xx: ${failures.slice(0, 5).join(' | ')}` : ''}`,
    );
  });

  await step('a copy at an address the gateway has never seen, alone', async () => {
    // The addresses when the gateway (re)started are the ones nginx would have pinned.
    const old = { command: await addressesOf('command'), query: await addressesOf('query') };
    await mustCompose([
      'up',
      '-d',
      '--no-deps',
      '--no-recreate',
      '--scale',
      'command=3',
      '--scale',
      'query=3',
      'command',
      'query',
    ]);
    await waitHealthy();
    const fresh: string[] = [];
    for (const service of ['command', 'query'] as const) {
      for (const [id, ip] of await addressesOf(service))
        if (!old[service].has(id)) fresh.push(`${service} ${ip}`);
    }
    const stopAt = Date.now();
    await must('docker', ['stop', ...old.command.keys(), ...old.query.keys()]);
    const stoppedSeconds = seconds(Date.now() - stopAt);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 100; i++) {
      const r =
        i % 2
          ? await api(
              'POST',
              '/api/masters/godowns',
              { name: `New copy ${i}` },
              { 'idempotency-key': randomUUID() },
            )
          : await api('GET', '/api/masters/cities');
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    figures.newAddressAlone = {
      fresh,
      statuses: Object.fromEntries(statuses),
      dockerStopSeconds: stoppedSeconds,
    };
    check(
      'new address',
      fresh.length === 2 && [...statuses.keys()].every((s) => s >= 200 && s < 300),
      `scaled to 3, then the 2 older copies of each stopped: the one left of each (${fresh.join(', ')}), at an address that did not exist when the gateway started, answered 100 requests: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    // Back to two copies: compose removes the newest, then starts the stopped ones.
    await must('docker', ['start', ...old.command.keys(), ...old.query.keys()]);
    await mustCompose([
      'up',
      '-d',
      '--no-deps',
      '--no-recreate',
      '--scale',
      'command=2',
      '--scale',
      'query=2',
      'command',
      'query',
    ]);
    await waitHealthy();
  });

  await step('the reports worker, then Redis, stopped', async () => {
    await mustCompose(['stop', 'reports-worker']);
    const noWorker = await api('GET', '/api/reports/stock/download/pdf');
    await mustCompose(['stop', 'redis']);
    const noRedis = await api('GET', '/api/reports/payments/download/pdf');
    const reads = await api('GET', '/api/masters/cities');
    const startAt = Date.now();
    await mustCompose(['start', 'redis', 'reports-worker']);
    const recoverMs = await until(
      async () => (await api('GET', '/api/reports/balances/download/pdf')).status === 200,
      120_000,
    );
    const recovered = recoverMs < 0 ? -1 : seconds(Date.now() - startAt);
    figures.workerRedisStopped = {
      noWorker: { status: noWorker.status, ms: Math.round(noWorker.ms), message: noWorker.json().message },
      noRedis: { status: noRedis.status, ms: Math.round(noRedis.ms), message: noRedis.json().message },
      readsMeanwhile: reads.status,
      secondsToPdfAfterStart: recovered,
    };
    check(
      'worker and Redis stopped',
      noWorker.status === 503 &&
        noWorker.ms < 2000 &&
        noRedis.status === 503 &&
        noRedis.ms < 2000 &&
        reads.status === 200 &&
        recovered >= 0,
      `no worker: ${noWorker.status} in ${Math.round(noWorker.ms)} ms "${noWorker.json().message}"; no Redis: ${noRedis.status} in ${Math.round(noRedis.ms)} ms "${noRedis.json().message}"; reads meanwhile ${reads.status}; a PDF again ${recovered} s after start`,
    );
  });

  await step('Postgres restarted under writes', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let stop = false;
    let n = 0;
    let firstFailureAt = 0;
    let recoveredAt = 0;
    const writer = async () => {
      while (!stop) {
        const r = await api(
          'POST',
          '/api/masters/cities',
          { name: `Restart ${++n}`, currency_name: 'INR', rate: '1' },
          { 'idempotency-key': randomUUID() },
        );
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 201 || r.status === 200) {
          acknowledged.push(r.json().id as string);
          if (firstFailureAt && !recoveredAt) recoveredAt = Date.now();
        } else {
          if (!firstFailureAt) firstFailureAt = Date.now();
          await sleep(100);
        }
      }
    };
    const writers = [writer(), writer()];
    await sleep(2000);
    const restartAt = Date.now();
    await mustCompose(['restart', 'postgres']);
    const restartedAt = Date.now();
    // Writes go on until they have been answered again for 3 s.
    await until(async () => recoveredAt > 0 && Date.now() - recoveredAt > 3000, 120_000);
    stop = true;
    await Promise.all(writers);
    let missing: string[] = [];
    const seenMs = await until(async () => {
      const list = (await api('GET', '/api/masters/cities?limit=-1')).text();
      missing = acknowledged.filter((id) => !list.includes(id));
      return missing.length === 0;
    }, 60_000);
    figures.postgresRestart = {
      acknowledged: acknowledged.length,
      missing: missing.length,
      statuses: Object.fromEntries(statuses),
      restartSeconds: seconds(restartedAt - restartAt),
      secondsFromRestartToFirstWrite: recoveredAt
        ? seconds(recoveredAt - restartAt)
        : firstFailureAt
          ? -1
          : 0,
    };
    check(
      'Postgres restart',
      acknowledged.length > 0 && missing.length === 0 && seenMs >= 0,
      `${acknowledged.length} writes acknowledged, ${missing.length} missing afterwards; answers ${JSON.stringify(Object.fromEntries(statuses))}; writes answered again ${(figures.postgresRestart as { secondsFromRestartToFirstWrite: number }).secondsFromRestartToFirstWrite} s after the restart began`,
    );
  });

  await step('a backup inside compose, restored into a standalone data directory', async () => {
    const backups = path.join(dir, 'backups');
    await mkdir(backups);
    await chmod(backups, 0o777); // the image's node user (uid 1000) writes there
    const backup = await mustCompose([
      'run',
      '--rm',
      '-T',
      '--no-deps',
      '-v',
      `${backups}:/backups`,
      'projector',
      'node',
      'scripts/dist/backup.mjs',
      '--out',
      '/backups/',
    ]);
    const file = (await readdir(backups)).find((f) => f.endsWith('.ndjson.gz'));
    if (!file) throw new Error(`no backup file:\n${backup.out}`);
    const manifest = JSON.parse(await readFile(path.join(backups, `${file}.manifest.json`), 'utf8')) as {
      events: number;
      headPosition: string;
      chainHead: string;
    };
    const restore = await run(
      path.join(ROOT, 'node_modules', '.bin', 'tsx'),
      ['scripts/restore.ts', path.join(backups, file)],
      {
        env: { ...process.env, DATABASE_URL: '', BAHI_DATA_DIR: path.join(dir, 'restored') },
      },
    );
    figures.backup = {
      events: manifest.events,
      head: manifest.headPosition,
      backupSeconds: seconds(backup.ms),
      restoreSeconds: seconds(restore.ms),
    };
    check(
      'backup and restore',
      restore.code === 0 && restore.out.includes(manifest.chainHead),
      `backup of ${manifest.events} events (head ${manifest.headPosition}) in ${seconds(backup.ms)} s inside compose; restore into a new PGlite directory exit ${restore.code} in ${seconds(restore.ms)} s, chain head ${manifest.chainHead.slice(0, 16)}… ${restore.out.includes(manifest.chainHead) ? 'verified' : 'NOT in its output'}\n${restore.out.trim().split('\n').slice(-6).join('\n')}`,
    );
  });

  await step('docker stop of each service', async () => {
    const results: Record<string, unknown>[] = [];
    for (const service of [
      'gateway',
      'command',
      'query',
      'projector',
      'reports-worker',
      'postgres',
      'redis',
    ]) {
      for (const id of await containers(service)) {
        const name = await inspect(id, '{{.Name}}');
        const stopped = await run('docker', ['stop', id]);
        const exit = Number(await inspect(id, '{{.State.ExitCode}}'));
        const logs = (await run('docker', ['logs', '--tail', '30', id])).out;
        const line = logs.split('\n').find((l) => /stopped cleanly/.test(l)) ?? '';
        results.push({
          name: name.replace(/^\//, ''),
          exit,
          seconds: seconds(stopped.ms),
          line: line.slice(0, 160),
        });
      }
    }
    figures.dockerStop = results;
    const app = results.filter((r) => !/gateway|postgres|redis/.test(r.name as string));
    check(
      'docker stop',
      results.every((r) => r.exit === 0) && app.every((r) => r.line),
      results
        .map(
          (r) =>
            `${r.name}: exit ${r.exit} in ${r.seconds} s${r.line ? ` "${String(r.line).replace(/^.*?(\w[\w-]*: stopped cleanly[^"]*?)(".*)?$/, '$1')}"` : ''}`,
        )
        .join('; '),
    );
  });
}

async function teardown() {
  if (composeFiles.length) {
    log('tearing down: containers, networks and volumes of this project');
    const down = await compose(['down', '-v', '--remove-orphans', '-t', '15']);
    if (down.code !== 0) log(`docker-compose down exited ${down.code}:\n${down.out}`);
  }
  if (dir) await rm(dir, { recursive: true, force: true });
  await stopDockerd();
}

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  await teardown();
}
figures.totalSeconds = seconds(Date.now() - started);
if (STANDINS_ONLY && !failed) process.exit(0);
await mkdir(path.join(ROOT, 'test-results'), { recursive: true });
await writeFile(
  path.join(ROOT, 'test-results', 'compose-run.json'),
  `${JSON.stringify({ at: new Date().toISOString(), checks, figures }, null, 2)}\n`,
);
console.log('\n==== npm run test:compose ====');
for (const c of checks) console.log(`${c.ok ? 'PASS' : 'FAIL'}  ${c.name}`);
console.log(JSON.stringify(figures, null, 2));
process.exit(failed || checks.some((c) => !c.ok) || (checks.length === 0 && !STANDINS_ONLY) ? 1 : 0);

// Validates the root docker-compose.yml with the docker-compose binary on PATH (Debian's 1.29 here).
// `docker-compose config` needs no Docker daemon: it only parses, interpolates and validates.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXPECTED_SERVICES = ['command', 'query', 'projector', 'reports-worker', 'gateway', 'postgres', 'redis'];
const REQUIRED = ['BAHI_JWT_SECRET_FILE', 'BAHI_ADMIN_PASSWORD_FILE', 'BAHI_LICENSE_DIR'] as const;

function dockerCompose(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync('docker-compose', args, { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 60_000 });
}

const probe = dockerCompose(['version', '--short']);
const composeAvailable = !probe.error && probe.status === 0;
if (!composeAvailable) {
  console.log(
    `compose.int.test: skipped, docker-compose is not available (${probe.error?.message ?? probe.stderr})`,
  );
}

/** The environment of a configured deployment: the secret files and the license directory exist. */
const dir = mkdtempSync(path.join(tmpdir(), 'bahi-compose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(path.join(dir, 'jwt_secret'), 'a-compose-test-secret-that-is-long-enough\n');
writeFileSync(path.join(dir, 'admin_password'), 'compose-test-password\n');
mkdirSync(path.join(dir, 'license'));
const configured: NodeJS.ProcessEnv = {
  ...process.env,
  BAHI_JWT_SECRET_FILE: path.join(dir, 'jwt_secret'),
  BAHI_ADMIN_PASSWORD_FILE: path.join(dir, 'admin_password'),
  BAHI_LICENSE_DIR: path.join(dir, 'license'),
};
for (const name of ['ESDB_URL', 'COMPOSE_PROFILES', 'BAHI_QUEUE_PREFIX']) delete configured[name];

/** The 2-space-indented blocks under `services:` in the YAML `docker-compose config` prints. */
function services(configText: string): Map<string, string> {
  const blocks = new Map<string, string>();
  let inServices = false;
  let current: string | undefined;
  for (const line of configText.split('\n')) {
    if (/^\S/.test(line)) {
      inServices = line.trimEnd() === 'services:';
      current = undefined;
    } else if (inServices) {
      const match = /^ {2}([A-Za-z0-9._-]+):\s*$/.exec(line);
      if (match?.[1]) {
        current = match[1];
        blocks.set(current, '');
      } else if (current) blocks.set(current, `${blocks.get(current)}${line}\n`);
    }
  }
  return blocks;
}

/** The variable names in a service block's `environment:` mapping. */
function environmentNames(block: string): string[] {
  const env = /^ {4}environment:\n((?: {6}.*\n)+)/m.exec(block)?.[1] ?? '';
  return [...env.matchAll(/^ {6}([A-Z0-9_]+):/gm)].map((m) => m[1]!).sort();
}

describe.skipIf(!composeAvailable)('docker-compose.yml', () => {
  const config = () => {
    const result = dockerCompose(['-f', 'docker-compose.yml', 'config'], configured);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return services(result.stdout);
  };

  it('passes `docker-compose config -q` with the required variables set', () => {
    const result = dockerCompose(['-f', 'docker-compose.yml', 'config', '-q'], configured);
    expect(result.error).toBeUndefined();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.each(REQUIRED)('refuses to start without %s, naming it', (variable) => {
    const env = { ...configured };
    delete env[variable];
    const result = dockerCompose(['-f', 'docker-compose.yml', 'config', '-q'], env);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`set ${variable} to`);
  });

  it('defines every service of the distributed deployment; EventStoreDB only as the esdb profile', () => {
    const blocks = config();
    for (const service of EXPECTED_SERVICES) expect([...blocks.keys()]).toContain(service);
    expect(blocks.get('eventstoredb')).toMatch(/profiles:\n\s+- esdb/);
    for (const service of ['command', 'query', 'projector', 'reports-worker']) {
      expect(blocks.get(service)).toContain("ESDB_URL: ''"); // the Postgres event store
      expect(blocks.get(service)).not.toContain('eventstoredb');
    }
  });

  it('gives each service only the variables it needs', () => {
    const blocks = config();
    const common = ['BAHI_DB_POOL_SIZE', 'DATABASE_URL', 'ESDB_URL', 'LOG_LEVEL', 'PORT'];
    const license = ['BAHI_LICENSE_FILE', 'BAHI_LICENSE_PUBLIC_KEY_FILE'];
    const queue = ['BAHI_QUEUE_PREFIX', 'REDIS_URL'];
    expect(environmentNames(blocks.get('command')!)).toEqual(
      [
        ...common,
        ...license,
        'BAHI_ADMIN_EMAIL',
        'BAHI_ADMIN_PASSWORD_FILE',
        'BAHI_JWT_SECRET_FILE',
        'BAHI_TRUSTED_PROXIES',
      ].sort(),
    );
    expect(environmentNames(blocks.get('query')!)).toEqual(
      [...common, ...license, ...queue, 'BAHI_CONTRACT_PEER_URL', 'BAHI_JWT_SECRET_FILE'].sort(),
    );
    expect(environmentNames(blocks.get('projector')!)).toEqual([...common].sort());
    expect(environmentNames(blocks.get('reports-worker')!)).toEqual(
      [
        ...common,
        ...queue,
        'BAHI_BUSINESS_NAME',
        'BAHI_WHATSAPP_TRANSPORT',
        'WHATSAPP_PHONE_NUMBER_ID',
        'WHATSAPP_TOKEN',
      ].sort(),
    );
    // The secrets are files mounted where the *_FILE variables point.
    expect(blocks.get('command')).toMatch(
      /secrets:\n\s+- source: bahi_jwt_secret\n\s+- source: bahi_admin_password/,
    );
    expect(blocks.get('query')).toMatch(/secrets:\n\s+- source: bahi_jwt_secret\n(?!\s+- source)/);
    expect(blocks.get('command')).toContain('BAHI_JWT_SECRET_FILE: /run/secrets/bahi_jwt_secret');
    expect(blocks.get('command')).toContain('BAHI_ADMIN_PASSWORD_FILE: /run/secrets/bahi_admin_password');
    for (const service of ['command', 'query']) {
      expect(blocks.get(service)).toContain(`${configured.BAHI_LICENSE_DIR}:/etc/bahi/license:ro`);
      expect(blocks.get(service)).toContain('BAHI_LICENSE_FILE: /etc/bahi/license/license.jws');
    }
  });

  it('wires the services to the shared infrastructure and the gateway to command and query', () => {
    const blocks = config();
    const text = [...blocks.values()].join('\n');
    expect(text).toContain('DATABASE_URL: postgres://bahi:bahi@postgres:5432/bahi');
    expect(blocks.get('query')).toContain('REDIS_URL: redis://redis:6379');
    expect(blocks.get('reports-worker')).toContain('REDIS_URL: redis://redis:6379');
    expect(blocks.get('query')).toContain('BAHI_QUEUE_PREFIX: bahi');
    expect(text).toContain('COMMAND_UPSTREAM: command:3001');
    expect(text).toContain('QUERY_UPSTREAM: query:3002');
    // Docker's own DNS, which the gateway asks at request time to follow the copies.
    expect(blocks.get('gateway')).toContain('GATEWAY_RESOLVER: 127.0.0.11');
    expect(text).toContain('FRONTENDS_ROOT: /srv/bahi/frontends');
    expect(text).toContain('/etc/nginx/templates/bahi.conf.template');
    expect(blocks.get('gateway')).toContain('curl -fsS -o /dev/null http://127.0.0.1:8080/');
    // node itself runs each compiled service (no npm in between), so SIGTERM reaches it;
    // test/clean-shutdown.int.test.ts runs these very commands.
    for (const service of ['command', 'query', 'projector', 'reports-worker']) {
      expect(blocks.get(service)).toContain(`- services/${service}/dist/main.mjs`);
      expect(blocks.get(service)).toMatch(/command:\n\s+- node\n/);
      expect(blocks.get(service)).toContain('stop_grace_period: 15s');
    }
  });

  it('puts the gateway on `edge` alone, where deploy/update.sh names a new copy once healthy', () => {
    const blocks = config();
    expect(blocks.get('gateway')).toMatch(/networks:\n\s+edge: null\n/);
    for (const service of ['command', 'query']) {
      // `default` first: a copy created but not started (update.sh) is on it alone.
      expect(blocks.get(service)).toMatch(
        /networks:\n\s+default:\n\s+priority: 10\n\s+edge:\n\s+priority: 1\n/,
      );
    }
    for (const service of ['projector', 'reports-worker', 'postgres', 'redis'])
      expect(blocks.get(service)).not.toContain('edge');
  });

  it('runs Postgres under an init, its healthcheck without a shell (no orphan for postgres to reap)', () => {
    const postgres = config().get('postgres')!;
    expect(postgres).toContain('init: true');
    expect(postgres).toMatch(/test:\n\s+- CMD\n\s+- pg_isready\n/);
  });

  it('reads the three required paths from .env, as README writes it, for every command', () => {
    const project = mkdtempSync(path.join(tmpdir(), 'bahi-compose-env-'));
    try {
      copyFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), path.join(project, 'docker-compose.yml'));
      writeFileSync(
        path.join(project, '.env'),
        REQUIRED.map((name) => `${name}=${configured[name]}`).join('\n') + '\n',
      );
      const bare = { ...process.env };
      for (const name of REQUIRED) delete bare[name];
      for (const args of [['config', '--quiet'], ['ps']]) {
        const result = spawnSync('docker-compose', args, {
          cwd: project,
          env: bare,
          encoding: 'utf8',
          timeout: 60_000,
        });
        // `ps` needs a Docker engine; without one it fails on the connection, never on a variable.
        expect(result.stderr).not.toMatch(/BAHI_/);
        if (args[0] === 'config') expect(result.status, result.stderr).toBe(0);
      }
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('sets the queue prefix and the pool sizes from the environment', () => {
    const result = dockerCompose(['-f', 'docker-compose.yml', 'config'], {
      ...configured,
      BAHI_QUEUE_PREFIX: 'shop-2',
      BAHI_QUERY_DB_POOL_SIZE: '5',
    });
    expect(result.status).toBe(0);
    const blocks = services(result.stdout);
    expect(blocks.get('query')).toContain('BAHI_QUEUE_PREFIX: shop-2');
    expect(blocks.get('reports-worker')).toContain('BAHI_QUEUE_PREFIX: shop-2');
    expect(blocks.get('query')).toContain("BAHI_DB_POOL_SIZE: '5'");
    // Command's default is smaller: each request may hold a second connection for its locks.
    expect(blocks.get('command')).toContain("BAHI_DB_POOL_SIZE: '6'");
  });
});

// Validates the root docker-compose.yml with the docker-compose binary on PATH (Debian's 1.29 here).
// `docker-compose config` needs no Docker daemon: it only parses, interpolates and validates.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXPECTED_SERVICES = [
  'command',
  'query',
  'projector',
  'reports-worker',
  'gateway',
  'postgres',
  'redis',
  'eventstoredb',
];

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

// Secrets have no defaults in the compose file (unset, compose warns and substitutes ""): give
// placeholders so the output is what a configured deployment would get.
const envWithSecrets = {
  ...process.env,
  BAHI_ADMIN_PASSWORD: 'compose-test-password',
  BAHI_JWT_SECRET: 'compose-test-secret',
};

/** Service names from the YAML `docker-compose config` prints: the 2-space keys under `services:`. */
function serviceNames(configText: string): string[] {
  const names: string[] = [];
  let inServices = false;
  for (const line of configText.split('\n')) {
    if (/^\S/.test(line)) inServices = line.trimEnd() === 'services:';
    else if (inServices) {
      const match = /^ {2}([A-Za-z0-9._-]+):\s*$/.exec(line);
      if (match?.[1]) names.push(match[1]);
    }
  }
  return names;
}

describe.skipIf(!composeAvailable)('docker-compose.yml', () => {
  it('passes `docker-compose config -q`', () => {
    const result = dockerCompose(['-f', 'docker-compose.yml', 'config', '-q'], envWithSecrets);
    expect(result.error).toBeUndefined();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('is still valid without the secrets set (compose only warns)', () => {
    const env = { ...process.env };
    delete env.BAHI_ADMIN_PASSWORD;
    delete env.BAHI_JWT_SECRET;
    const result = dockerCompose(['-f', 'docker-compose.yml', 'config', '-q'], env);
    expect(result.status).toBe(0);
  });

  it('defines every service of the distributed deployment', () => {
    const result = dockerCompose(['-f', 'docker-compose.yml', 'config'], envWithSecrets);
    expect(result.status).toBe(0);
    const names = serviceNames(result.stdout);
    for (const service of EXPECTED_SERVICES) expect(names).toContain(service);
  });

  it('wires the services to the shared infrastructure and the gateway to command and query', () => {
    const result = dockerCompose(['-f', 'docker-compose.yml', 'config'], envWithSecrets);
    const text = result.stdout;
    expect(text).toContain('DATABASE_URL: postgres://bahi:bahi@postgres:5432/bahi');
    expect(text).toContain('ESDB_URL: esdb://eventstoredb:2113?tls=false');
    expect(text).toContain('REDIS_URL: redis://redis:6379');
    expect(text).toContain('COMMAND_UPSTREAM: command:3001');
    expect(text).toContain('QUERY_UPSTREAM: query:3002');
    expect(text).toContain('/etc/nginx/templates/bahi.conf.template');
    for (const script of ['start:command', 'start:query', 'start:projector', 'start:worker']) {
      expect(text).toContain(`- ${script}`);
    }
  });
});

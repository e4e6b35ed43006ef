import { type ChildProcess, spawn } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access, chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './processes.ts';

export const NGINX = '/usr/sbin/nginx';
const TEMPLATE = path.resolve(import.meta.dirname, '..', 'deploy', 'gateway', 'bahi.conf.template');

export const nginxAvailable = await access(NGINX, fsConstants.X_OK).then(
  () => true,
  () => false,
);

export interface Gateway {
  port: number;
  url: string;
  /** nginx's error log so far (warn and above: failed connections to a copy, for one). */
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The real nginx with deploy/gateway/bahi.conf.template, rendered as the official nginx image's
 * envsubst renders it (only the template variables), inside a minimal nginx.conf in a temp
 * directory (deploy/gateway/README.md, Tests).
 *
 * An upstream is `host:port` (an address, or a name the resolver answers), or a list of
 * `127.0.0.1:port` copies: copies on one host differ by port, which DNS cannot say, so the list
 * becomes an upstream{} group in the wrapper nginx.conf and the template's variable names the
 * group (nginx uses a group of that name before it would resolve one). `resolver` is the DNS
 * server for names (`127.0.0.1:port`); without one, a port nobody answers on (IP literals need none).
 */
export async function startGateway(vars: {
  commandUpstream: string | string[];
  queryUpstream: string | string[];
  frontendsRoot: string;
  resolver?: string;
}): Promise<Gateway> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bahi-gw-'));
  await chmod(dir, 0o755);
  const port = await freePort();
  const groups: string[] = [];
  const upstream = (name: string, value: string | string[]) => {
    if (typeof value === 'string') return value;
    groups.push(`  upstream ${name} {`, ...value.map((copy) => `    server ${copy};`), '  }');
    return name;
  };
  const values: Record<string, string> = {
    COMMAND_UPSTREAM: upstream('bahi_test_command', vars.commandUpstream),
    QUERY_UPSTREAM: upstream('bahi_test_query', vars.queryUpstream),
    GATEWAY_RESOLVER: vars.resolver ?? `127.0.0.1:${await freePort()}`,
    FRONTENDS_ROOT: vars.frontendsRoot,
    GATEWAY_PORT: `127.0.0.1:${port}`,
  };
  const rendered = (await readFile(TEMPLATE, 'utf8')).replace(
    /\$\{([A-Z_][A-Z0-9_]*)\}/g,
    (whole, name: string) => (name in values ? values[name]! : whole),
  );
  const t = (name: string) => path.join(dir, name);
  await writeFile(t('bahi.conf'), rendered);
  const errorLog = t('error.log');
  await writeFile(
    t('nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${t('nginx.pid')};`,
      `error_log ${errorLog} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  include /etc/nginx/mime.types;',
      '  default_type application/octet-stream;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((n) => `  ${n}_temp_path ${t(n)};`),
      '  access_log off;',
      ...groups,
      `  include ${t('bahi.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const nginx: ChildProcess = spawn(NGINX, ['-p', dir, '-c', t('nginx.conf'), '-e', errorLog], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (nginx.exitCode === null) nginx.kill('SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (nginx.exitCode !== null) {
      const log = await readFile(errorLog, 'utf8').catch(() => '');
      await stop();
      throw new Error(`nginx exited with code ${nginx.exitCode}:\n${log}`);
    }
    const connected = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (connected) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not listen on ${port} within 10 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    errorLog: () => readFile(errorLog, 'utf8').catch(() => ''),
    stop,
  };
}

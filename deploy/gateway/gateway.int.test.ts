import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../packages/server-kit/src/http-app.ts';
import { type DnsStub, startDnsStub } from '../../test/dns-stub.ts';
import { type Gateway, nginxAvailable, startGateway } from '../../test/gateway.ts';
import { freePort } from '../../test/processes.ts';

const TEMPLATE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bahi.conf.template');
const TEMPLATE_VARS = [
  'COMMAND_UPSTREAM',
  'QUERY_UPSTREAM',
  'GATEWAY_RESOLVER',
  'FRONTENDS_ROOT',
  'GATEWAY_PORT',
] as const;
type TemplateVars = Record<(typeof TEMPLATE_VARS)[number], string>;

if (!nginxAvailable) console.log('gateway.int.test: skipped, nginx is not installed');

/** Substitute ${VAR} for the given variables only, like the nginx image's envsubst with a defined set. */
function renderTemplate(template: string, vars: TemplateVars): string {
  return template.replace(/\$\{([A-Z_][A-Z0-9_]*)\}/g, (whole, name: string) =>
    name in vars ? vars[name as keyof TemplateVars] : whole,
  );
}

async function listen(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

async function closeServer(server: http.Server | undefined): Promise<void> {
  if (!server?.listening) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const SSE_FIRST = 'id: 1\nevent: funder.created\ndata: {"n":1}\n\n';
const SSE_SECOND = 'id: 2\nevent: funder.created\ndata: {"n":2}\n\n';
const SSE_SECOND_DELAY_MS = 300;

/** Fake command/query service: echoes what it received; the query one also serves the SSE stream. */
function fakeService(service: 'command' | 'query', sse: { secondSentAt?: number }): http.Server {
  return http.createServer((req, res) => {
    if (service === 'query' && req.method === 'GET' && req.url === '/api/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(SSE_FIRST);
      const timer = setTimeout(() => {
        sse.secondSentAt = Date.now();
        res.write(SSE_SECOND);
      }, SSE_SECOND_DELAY_MS);
      res.on('close', () => clearTimeout(timer));
      return; // never ends
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.stringify({
        service,
        method: req.method,
        url: req.url,
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      });
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-service': service,
      });
      res.end(body);
    });
  });
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  port: number,
  method: string,
  urlPath: string,
  options: { body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: urlPath, headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const APP_JS = `/* app bundle */\n${'console.log("bahi shell asset");\n'.repeat(100)}`;
const REMOTE_ENTRY_JS = 'var masters; /* remote entry */';

describe.skipIf(!nginxAvailable)('gateway (real nginx, bahi.conf.template)', () => {
  let dir = '';
  let gateway: Gateway | undefined;
  let command: http.Server | undefined;
  let query: http.Server | undefined;
  let gatewayPort = 0;
  const sse: { secondSentAt?: number } = {};

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bahi-gateway-'));
    // nginx workers may run as an unprivileged user: make the tree readable.
    await chmod(dir, 0o755);

    const frontends = path.join(dir, 'frontends');
    await mkdir(path.join(frontends, 'shell/dist/assets'), { recursive: true });
    await mkdir(path.join(frontends, 'masters/dist'), { recursive: true });
    await writeFile(path.join(frontends, 'shell/dist/index.html'), 'SHELL');
    await writeFile(path.join(frontends, 'shell/dist/assets/app.1234.js'), APP_JS);
    await writeFile(path.join(frontends, 'masters/dist/remoteEntry.js'), REMOTE_ENTRY_JS);

    command = fakeService('command', sse);
    query = fakeService('query', sse);
    gateway = await startGateway({
      commandUpstream: `127.0.0.1:${await listen(command)}`,
      queryUpstream: `127.0.0.1:${await listen(query)}`,
      frontendsRoot: frontends,
    });
    gatewayPort = gateway.port;
  });

  it('renders every template variable (none is left for nginx to read literally)', async () => {
    const rendered = renderTemplate(await readFile(TEMPLATE, 'utf8'), {
      COMMAND_UPSTREAM: 'command:3001',
      QUERY_UPSTREAM: 'query:3002',
      GATEWAY_RESOLVER: '127.0.0.11',
      FRONTENDS_ROOT: '/srv/bahi/frontends',
      GATEWAY_PORT: '8080',
    });
    const unrendered = rendered
      .split('\n')
      .filter((line) => !line.trim().startsWith('#') && line.includes('${'));
    expect(unrendered).toEqual([]);
  });

  afterAll(async () => {
    await gateway?.stop();
    await closeServer(command);
    await closeServer(query);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe('API routing by method', () => {
    it('sends GET /api/* to query, with the query string', async () => {
      const reply = await request(gatewayPort, 'GET', '/api/funders?city=kabul');
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({
        service: 'query',
        method: 'GET',
        url: '/api/funders?city=kabul',
      });
    });

    it('sends HEAD /api/health to query', async () => {
      const reply = await request(gatewayPort, 'HEAD', '/api/health');
      expect(reply.status).toBe(200);
      expect(reply.headers['x-service']).toBe('query');
      expect(reply.body).toBe('');
    });

    it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('sends %s /api/funders to command', async (method) => {
      const reply = await request(gatewayPort, method, '/api/funders');
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({ service: 'command', method, url: '/api/funders' });
    });

    it('sends POST /api/reports/whatsapp to query, which enqueues the send', async () => {
      const reply = await request(gatewayPort, 'POST', '/api/reports/whatsapp');
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({
        service: 'query',
        method: 'POST',
        url: '/api/reports/whatsapp',
      });
    });

    it('sends Send now (POST .../outbox/<id>/send) to query, and marking sent to command', async () => {
      const send = await request(gatewayPort, 'POST', '/api/reports/whatsapp/outbox/abc123/send');

      expect(JSON.parse(send.body)).toMatchObject({ service: 'query', method: 'POST' });
      const sent = await request(gatewayPort, 'POST', '/api/reports/whatsapp/outbox/abc123/sent');
      expect(JSON.parse(sent.body)).toMatchObject({ service: 'command', method: 'POST' });
      const list = await request(gatewayPort, 'GET', '/api/reports/whatsapp/outbox');
      expect(JSON.parse(list.body)).toMatchObject({ service: 'query', method: 'GET' });
    });

    it('passes request bodies through to command', async () => {
      const payload = JSON.stringify({ name: 'Funder Ltd', city: 'Herat', note: 'ü'.repeat(2000) });
      const reply = await request(gatewayPort, 'POST', '/api/funders', {
        body: payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(reply.status).toBe(200);
      const echoed = JSON.parse(reply.body);
      expect(echoed.service).toBe('command');
      expect(echoed.body).toBe(payload);
      expect(echoed.headers['content-type']).toBe('application/json');
    });

    it('sends every method on /api/imports to command, with files up to 6 MB', async () => {
      const get = await request(gatewayPort, 'GET', '/api/imports/abc');
      expect(JSON.parse(get.body)).toMatchObject({
        service: 'command',
        method: 'GET',
        url: '/api/imports/abc',
      });
      const template = await request(gatewayPort, 'GET', '/api/imports/templates/funders.xlsx');
      expect(JSON.parse(template.body)).toMatchObject({ service: 'command', method: 'GET' });
      const upload = await request(gatewayPort, 'POST', '/api/imports?kind=funders&file_name=f.xlsx', {
        body: Buffer.alloc(3 * 1024 * 1024, 'a'),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(upload.status).toBe(200);
      expect(JSON.parse(upload.body)).toMatchObject({ service: 'command', method: 'POST' });
    });

    it('rejects bodies over client_max_body_size with 413', async () => {
      const reply = await request(gatewayPort, 'POST', '/api/funders', {
        body: Buffer.alloc(3 * 1024 * 1024, 'a'),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(reply.status).toBe(413);
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(reply.body)).toEqual({ message: 'The request is too large (at most 2 MB).' });
    });

    it('forwards Host, X-Forwarded-For, X-Forwarded-Proto and a request id', async () => {
      const reply = await request(gatewayPort, 'GET', '/api/funders', { headers: { host: 'bahi.example' } });
      const { headers } = JSON.parse(reply.body) as { headers: Record<string, string> };
      expect(headers.host).toBe('bahi.example');
      expect(headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(headers['x-forwarded-proto']).toBe('http');
      expect(headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
      expect(reply.headers['x-request-id']).toBe(headers['x-request-id']);
    });

    it("keeps a caller's X-Request-Id", async () => {
      const reply = await request(gatewayPort, 'DELETE', '/api/funders/7', {
        headers: { 'x-request-id': 'req-abc-123' },
      });
      const echoed = JSON.parse(reply.body) as { service: string; headers: Record<string, string> };
      expect(echoed.service).toBe('command');
      expect(echoed.headers['x-request-id']).toBe('req-abc-123');
    });
  });

  describe('SSE /api/events', () => {
    it('is configured without proxy buffering or caching, on HTTP/1.1 with a long read timeout', async () => {
      const template = await readFile(TEMPLATE, 'utf8');
      const block = /location = \/api\/events \{([^}]*)\}/.exec(template)?.[1] ?? '';
      expect(block).toMatch(/proxy_pass http:\/\/\$bahi_query_upstream;/);
      expect(block).toMatch(/proxy_buffering off;/);
      expect(block).toMatch(/proxy_cache off;/);
      expect(block).toMatch(/proxy_read_timeout 1h;/);
      expect(block).not.toMatch(/proxy_set_header/); // inherits HTTP/1.1 + Connection '' from the server block
      expect(template).toMatch(/^\s*proxy_http_version 1\.1;/m);
      expect(template).toMatch(/^\s*proxy_set_header Connection "";/m);
    });

    it('streams the first event from query before the second is sent (no buffering)', async () => {
      const startedAt = Date.now();
      const first = await new Promise<{ at: number; text: string; headers: http.IncomingHttpHeaders }>(
        (resolve, reject) => {
          const req = http.get(
            {
              host: '127.0.0.1',
              port: gatewayPort,
              path: '/api/events',
              headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate, br' },
              agent: false,
            },
            (res) => {
              res.setEncoding('utf8');
              res.once('data', (text: string) => {
                resolve({ at: Date.now(), text, headers: res.headers });
                req.destroy();
              });
              res.once('error', reject);
            },
          );
          req.on('error', (error) => {
            if (!req.destroyed) reject(error);
          });
          setTimeout(() => {
            req.destroy();
            reject(new Error('no SSE data within 2 s'));
          }, 2_000);
        },
      );
      expect(first.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(first.headers['content-encoding']).toBeUndefined();
      expect(first.text).toContain('"n":1');
      expect(first.text).not.toContain('"n":2');
      expect(first.at - startedAt).toBeLessThan(SSE_SECOND_DELAY_MS - 50);
      // the chunk reached the client before the fake had even written the second event
      if (sse.secondSentAt !== undefined) expect(first.at).toBeLessThan(sse.secondSentAt);
    });
  });

  describe('frontends', () => {
    it('serves the shell index.html at /', async () => {
      const reply = await request(gatewayPort, 'GET', '/');
      expect(reply.status).toBe(200);
      expect(reply.body).toBe('SHELL');
      expect(reply.headers['content-type']).toMatch(/^text\/html/);
      expect(reply.headers['cache-control']).toBe('no-cache');
    });

    it('sends the security headers with every file it serves (the services send them on /api)', async () => {
      for (const path of ['/', '/masters/cities', '/assets/app.1234.js', '/remotes/masters/remoteEntry.js']) {
        const reply = await request(gatewayPort, 'GET', path);
        expect(reply.headers['content-security-policy'], path).toBe(CONTENT_SECURITY_POLICY);
        expect(reply.headers['x-content-type-options'], path).toBe('nosniff');
        expect(reply.headers['x-frame-options'], path).toBe('DENY');
        expect(reply.headers['referrer-policy'], path).toBe('no-referrer');
      }
    });

    it("keeps the services' /metrics private: the path is the shell's, never proxied", async () => {
      const reply = await request(gatewayPort, 'GET', '/metrics');
      expect(reply.status).toBe(200);
      expect(reply.body).toBe('SHELL');
      expect(reply.headers['x-service']).toBeUndefined();
    });

    it('falls back to the shell index.html for a client-side route without extension', async () => {
      const reply = await request(gatewayPort, 'GET', '/masters/cities');
      expect(reply.status).toBe(200);
      expect(reply.body).toBe('SHELL');
      expect(reply.headers['cache-control']).toBe('no-cache');
    });

    it('serves hashed shell assets with a long cache', async () => {
      const reply = await request(gatewayPort, 'GET', '/assets/app.1234.js');
      expect(reply.status).toBe(200);
      expect(reply.body).toBe(APP_JS);
      expect(reply.headers['content-type']).toMatch(/javascript/);
      expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it('gzips JavaScript when the client accepts it', async () => {
      const reply = await request(gatewayPort, 'GET', '/assets/app.1234.js', {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(reply.status).toBe(200);
      expect(reply.headers['content-encoding']).toBe('gzip');
    });

    it('answers 404 for a missing shell file with an extension', async () => {
      const reply = await request(gatewayPort, 'GET', '/assets/missing.5678.js');
      expect(reply.status).toBe(404);
    });

    it("serves a remote's files under /remotes/<name>/, remoteEntry.js without caching", async () => {
      const reply = await request(gatewayPort, 'GET', '/remotes/masters/remoteEntry.js');
      expect(reply.status).toBe(200);
      expect(reply.body).toBe(REMOTE_ENTRY_JS);
      expect(reply.headers['content-type']).toMatch(/javascript/);
      expect(reply.headers['cache-control']).toBe('no-cache');
    });

    it('answers 404 for a missing remote file (no index.html fallback)', async () => {
      expect((await request(gatewayPort, 'GET', '/remotes/masters/missing.js')).status).toBe(404);
      expect((await request(gatewayPort, 'GET', '/remotes/masters/some/route')).status).toBe(404);
      expect((await request(gatewayPort, 'GET', '/remotes/unknown/remoteEntry.js')).status).toBe(404);
    });
  });
});

describe.skipIf(!nginxAvailable)('gateway with no service behind it (real nginx)', () => {
  let gateway: Gateway | undefined;
  beforeAll(async () => {
    // Ports nobody listens on: every API call fails to connect, as when every copy is down.
    gateway = await startGateway({
      commandUpstream: `127.0.0.1:${await freePort()}`,
      queryUpstream: `127.0.0.1:${await freePort()}`,
      frontendsRoot: tmpdir(),
    });
  });
  afterAll(() => gateway?.stop());

  it.each([
    ['GET', '/api/masters/cities'],
    ['POST', '/api/masters/cities'],
    ['GET', '/api/events'],
  ])('answers %s %s with a JSON 502 in the API shape, not an HTML page', async (method, urlPath) => {
    const reply = await request(gateway!.port, method, urlPath, {
      body: method === 'POST' ? '{}' : undefined,
      headers: { 'content-type': 'application/json' },
    });
    expect(reply.status).toBe(502);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(reply.body)).toEqual({
      message: 'The server cannot be reached right now. Please try again in a moment.',
    });
  });
});

/**
 * The gateway as compose runs it: the services by name, through a DNS server (here a stub on
 * 127.0.0.1 that answers as Docker's does, every copy's address; compose's own run is
 * test/compose/run.ts). Copies are small servers on 127.0.0.2 and 127.0.0.3 (loopback), on one port.
 */
describe.skipIf(!nginxAvailable)('gateway following the names behind it (real nginx, a DNS stub)', () => {
  const A = '127.0.0.2';
  const B = '127.0.0.3';
  const NOBODY = '127.0.0.4'; // no server: connections are refused, as by a copy gone from the address
  const NAMES = ['command.bahi.test', 'query.bahi.test'];
  let dns: DnsStub | undefined;
  let gateway: Gateway | undefined;
  const copies = new Map<string, http.Server>();

  /** A copy that names itself and the service it was reached as. */
  async function startCopy(address: string, port: number) {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const body = JSON.stringify({ copy: address, method: req.method });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, address, () => resolve());
    });
    copies.set(address, server);
  }

  /** Every name now answers `addresses`; resolves once nginx has asked again for each. */
  async function point(addresses: string[]) {
    const before = NAMES.map((name) => dns!.queries(name));
    for (const name of NAMES) dns!.set(name, addresses);
    for (let i = 0; i < 100 && NAMES.some((name, n) => dns!.queries(name) === before[n]); i++) {
      await Promise.all([
        request(gateway!.port, 'GET', '/api/ping'),
        request(gateway!.port, 'POST', '/api/ping', { body: '{}' }),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function copiesAnswering(count: number) {
    const replies: Reply[] = [];
    for (let i = 0; i < count; i++) {
      replies.push(await request(gateway!.port, 'GET', '/api/ping'));
      replies.push(await request(gateway!.port, 'POST', '/api/ping', { body: '{}' }));
    }
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 200));
    return new Set(replies.map((r) => (JSON.parse(r.body) as { copy: string }).copy));
  }

  beforeAll(async () => {
    const port = await freePort();
    await startCopy(A, port);
    await startCopy(B, port);
    dns = await startDnsStub(Object.fromEntries(NAMES.map((name) => [name, [A]])));
    gateway = await startGateway({
      commandUpstream: `command.bahi.test:${port}`,
      queryUpstream: `query.bahi.test:${port}`,
      resolver: `127.0.0.1:${dns.port}`,
      frontendsRoot: tmpdir(),
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    await dns?.close();
    for (const server of copies.values()) await closeServer(server);
  });

  it('reaches a service by the address its name has now, without a restart', async () => {
    expect(await copiesAnswering(5)).toEqual(new Set([A]));
    // The container is re-created with a new address (docker-compose up --build): the name moves.
    await point([B]);
    await closeServer(copies.get(A));
    expect(await copiesAnswering(10)).toEqual(new Set([B]));
  });

  it('passes a request on to the next address when a copy refuses, reads and writes alike', async () => {
    await point([NOBODY, B]);
    expect(await copiesAnswering(20)).toEqual(new Set([B]));
    // The refused copy was tried (nginx logs each failed attempt), and each request went on.
    expect(await gateway!.errorLog()).toContain(
      `connect() failed (111: Connection refused) while connecting to upstream`,
    );
    expect(await gateway!.errorLog()).toContain(`${NOBODY}:`);
  });

  it('goes through every address of the answer, however many refuse before the one that answers', async () => {
    // During a rolling update the name holds copies that are stopping beside those that answer.
    // nginx starts each request at a random address of the answer: with a fixed count of 3 tries
    // (before), two requests in five here would run out on refusing addresses (a 502).
    await point(['127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7', B]);
    expect(await copiesAnswering(20)).toEqual(new Set([B]));
  });

  it('answers the JSON 502 when the name has no copy left', async () => {
    for (const name of NAMES) dns!.set(name, undefined);
    let reply: Reply | undefined;
    for (let i = 0; i < 50; i++) {
      reply = await request(gateway!.port, 'GET', '/api/ping');
      if (reply.status !== 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(reply?.status).toBe(502);
    expect(JSON.parse(reply!.body)).toEqual({
      message: 'The server cannot be reached right now. Please try again in a moment.',
    });
  });
});

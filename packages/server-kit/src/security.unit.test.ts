import type { EventStore } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import { describe, expect, it } from 'vitest';
import { registerHealthRoutes } from './health.ts';
import { CONTENT_SECURITY_POLICY, createHttpApp } from './http-app.ts';

/** Issue #16: security headers on every answer, and a public readiness check that names no database error. */
describe('security headers', () => {
  const app = () => {
    const a = createHttpApp({
      fastify: { logger: false },
      pageFallback: async (_r, reply) => reply.type('text/html').send('<p>page</p>'),
    });
    a.get('/api/things', async () => ({ ok: true }));
    a.get('/api/cached', async (_request, reply) =>
      reply.header('Cache-Control', 'public, max-age=60').send({}),
    );
    return a;
  };

  it('sends nosniff, no framing, no referrer and the CSP on API answers, errors and pages; /api is never cached', async () => {
    for (const url of ['/api/things', '/api/cached', '/api/nothing-here', '/some/page']) {
      const res = await app().inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
      if (url.startsWith('/api')) expect(res.headers['cache-control'], url).toBe('no-store');
      else expect(res.headers['cache-control'], url).toBeUndefined();
    }
  });

  it('has a CSP the frontends can run under: own scripts only, inline styles for griffel, no framing', () => {
    const directives = Object.fromEntries(
      CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]),
    );
    expect(directives['script-src']).toEqual(["'self'"]); // no 'unsafe-inline', no 'unsafe-eval'
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
  });
});

describe('GET /api/ready', () => {
  it('says a dependency is not reachable without its error text (hosts, users), and hides projection errors', async () => {
    const a = createHttpApp({ fastify: { logger: false } });
    const eventStore = {
      kind: 'postgres',
      headPosition: async () => {
        throw new Error('password authentication failed for user "bahi" at db.internal:5432');
      },
    } as unknown as EventStore;
    const readDb = {} as ReadDb; // any query on it throws
    registerHealthRoutes(a, {
      service: 'test',
      eventStore,
      readDb,
      extraChecks: [
        {
          name: 'redis',
          check: async () => {
            throw new Error('connect ECONNREFUSED 10.1.2.3:6379');
          },
        },
      ],
    });
    const res = await a.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks).toEqual({
      eventStore: { ok: false, error: 'not reachable' },
      readDb: { ok: false, error: 'not reachable' },
      redis: { ok: false, error: 'not reachable' },
    });
    expect(res.body).not.toMatch(/password|bahi"|db\.internal|10\.1\.2\.3|ECONNREFUSED/);
  });
});

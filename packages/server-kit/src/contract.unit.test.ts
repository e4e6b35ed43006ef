import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from './contract.ts';
import { createHttpApp, HttpError, registerErrorMapping } from './http-app.ts';

class OutOfStock extends Error {}

function app() {
  const a = createHttpApp({ fastify: { logger: false } });
  registerErrorMapping(a, (error) =>
    error instanceof OutOfStock ? new HttpError(409, 'Not enough stock.') : undefined,
  );
  const api = a.withTypeProvider<ZodTypeProvider>();
  const thing = z.object({ name: z.string().min(1, 'Name is required'), qty: z.coerce.number() });
  api.put(
    '/api/things/:id',
    {
      schema: {
        summary: 'Change a thing',
        params: z.object({
          id: z.string().transform((id) => {
            if (!/^\d+$/.test(id)) throw new HttpError(404, 'Thing not found.');
            return Number(id);
          }),
        }),
        body: thing,
        response: { 200: thing.extend({ id: z.number() }) },
      },
    },
    async (request) => ({ id: request.params.id, ...request.body }),
  );
  api.get(
    '/api/things',
    {
      schema: {
        querystring: z.object({ page: z.coerce.number().default(1) }),
        response: { 200: z.unknown() },
      },
    },
    async (request) => {
      if (request.query.page > 9) throw new OutOfStock();
      return { page: request.query.page };
    },
  );
  return a;
}

describe('route schemas (issue #19)', () => {
  it('hands the handler the parsed input, and refuses a bad body as a handler parse did', async () => {
    const a = app();
    const ok = await a.inject({ method: 'PUT', url: '/api/things/7', payload: { name: 'Cumin', qty: '3' } });
    expect(ok.json()).toEqual({ id: 7, name: 'Cumin', qty: 3 });
    const bad = await a.inject({ method: 'PUT', url: '/api/things/7', payload: { name: '' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      message: 'The request is not valid.',
      errors: [
        { msg: 'Name is required', path: 'name' },
        { msg: expect.any(String), path: 'qty' },
      ],
    });
    const none = await a.inject({ method: 'PUT', url: '/api/things/7' });
    expect(none.json().errors).toEqual([{ msg: expect.stringContaining('received undefined'), path: '' }]);
  });

  it('keeps the status of an HttpError a params schema throws, before the body is looked at', async () => {
    const res = await app().inject({ method: 'PUT', url: '/api/things/x', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Thing not found.' });
  });

  it('maps a registered error to its client error', async () => {
    const res = await app().inject({ method: 'GET', url: '/api/things?page=10' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Not enough stock.' });
  });

  it('describes its routes in openapi.json and lists them at /api/docs', async () => {
    const a = app();
    const doc = (await a.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const put = doc.paths['/api/things/{id}'].put;
    expect(put.summary).toBe('Change a thing');
    expect(put.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(put.requestBody.content['application/json'].schema.required).toEqual(['name', 'qty']);
    expect(put.responses['200'].content['application/json'].schema.properties.id).toEqual({ type: 'number' });
    expect(doc.paths['/api/things'].get.parameters[0]).toMatchObject({
      name: 'page',
      in: 'query',
      required: false,
    });
    const page = await a.inject({ method: 'GET', url: '/api/docs' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('/api/things/{id}');
  });

  it("takes in the peer service's half of the API, and answers 503 while the peer cannot be read", async () => {
    // The peer: the "command" half, listening as it would in distributed mode.
    const command = createHttpApp({ fastify: { logger: false } });
    command.withTypeProvider<ZodTypeProvider>().post(
      '/api/things',
      {
        schema: {
          summary: 'Add a thing',
          body: z.object({ name: z.string() }),
          response: { 201: z.object({ id: z.string() }) },
        },
      },
      async (_request, reply) => reply.code(201).send({ id: '1' }),
    );
    const address = await command.listen({ port: 0, host: '127.0.0.1' });
    const query = createHttpApp({ fastify: { logger: false }, contractPeer: address });
    query.get(
      '/api/things',
      { schema: { summary: 'List things', response: { 200: z.array(z.string()) } } },
      async () => [],
    );
    try {
      const whole = (await query.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      expect(Object.keys(whole.paths['/api/things']).sort()).toEqual(['get', 'post']);
      expect(whole.paths['/api/things'].post.summary).toBe('Add a thing');
      expect(whole.components.schemas.ErrorBody).toBeDefined();
      const own = (await query.inject({ method: 'GET', url: '/api/openapi.json?part=own' })).json();
      expect(Object.keys(own.paths['/api/things'])).toEqual(['get']);
      const page = await query.inject({ method: 'GET', url: '/api/docs' });
      expect(page.body).toContain('Add a thing');
      expect(page.body).toContain('List things');
    } finally {
      await command.close();
    }
    // A peer that is gone: a fresh app (nothing kept) says so rather than serving half the API.
    const alone = createHttpApp({ fastify: { logger: false }, contractPeer: address });
    const res = await alone.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toContain("the other service's half cannot be read");
    expect((await alone.inject({ method: 'GET', url: '/api/openapi.json?part=own' })).statusCode).toBe(200);
  });
});

/**
 * Issue #27: a query parameter the route does not take was dropped from the parsed query, so
 * `?city_id[]=x` answered every row, as if unfiltered. It is a 400 on that parameter now.
 */
describe('query parameters a route does not take', () => {
  const lists = () => {
    const a = createHttpApp({ fastify: { logger: false } });
    const api = a.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/api/rows',
      {
        schema: {
          querystring: z.object({
            city_id: z.string().optional(),
            page: z.coerce.number().default(1),
            tags: z.array(z.string()).optional(),
          }),
        },
      },
      async (request) => request.query,
    );
    api.get(
      '/api/piped',
      {
        schema: {
          querystring: z.object({ q: z.string().optional() }).transform((v) => ({ ...v, piped: true })),
        },
      },
      async (request) => request.query,
    );
    api.get('/api/plain', async () => ({ ok: true }));
    api.get(
      '/api/any',
      { schema: { querystring: z.record(z.string(), z.unknown()) } },
      async (request) => request.query,
    );
    return a;
  };
  const get = async (url: string) => {
    const res = await lists().inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json() };
  };

  it('refuses a parameter written as a list or an object, naming it and saying what to send', async () => {
    for (const name of ['city_id[]', 'city_id[0]', 'city_id[x][y]']) {
      const res = await get(`/api/rows?${encodeURIComponent(name)}=x`);
      expect(res.status, name).toBe(400);
      expect(res.body).toEqual({
        message: 'The request is not valid.',
        errors: [{ msg: `${name} is not understood: give city_id once, as city_id=value`, path: name }],
      });
    }
  });

  it('refuses a name the route does not take, and one given twice where it takes one value', async () => {
    expect((await get('/api/rows?cityid=x&page=2')).body.errors).toEqual([
      { msg: 'cityid is not a parameter here (it takes city_id, page, tags)', path: 'cityid' },
    ]);
    expect((await get('/api/rows?__proto__[x]=1')).body.errors).toEqual([
      { msg: expect.stringContaining('is not a parameter here'), path: '__proto__[x]' },
    ]);
    expect((await get('/api/rows?city_id=a&city_id=b')).body.errors).toEqual([
      { msg: 'city_id is given 2 times: give it once', path: 'city_id' },
    ]);
    expect((await get('/api/piped?q=1&r=2')).body.errors).toEqual([
      { msg: 'r is not a parameter here (it takes q)', path: 'r' },
    ]);
  });

  it('takes what the route declares, a list where it takes one, and echoes at most 60 characters of a name', async () => {
    expect(await get('/api/rows?city_id=x&page=2')).toEqual({ status: 200, body: { city_id: 'x', page: 2 } });
    expect((await get('/api/rows?tags=a&tags=b')).body).toEqual({ page: 1, tags: ['a', 'b'] });
    expect((await get('/api/piped?q=1')).body).toEqual({ q: '1', piped: true });
    expect((await get('/api/any?whatever=1')).body).toEqual({ whatever: '1' });
    const long = 'x'.repeat(5000);
    const res = await get(`/api/rows?${long}=1`);
    expect(res.body.errors[0].msg).toBe(
      `${'x'.repeat(60)}... is not a parameter here (it takes city_id, page, tags)`,
    );
  });

  it('refuses any parameter on a route that declares none, yet documents none for it', async () => {
    const a = lists();
    expect((await get('/api/plain')).body).toEqual({ ok: true });
    expect((await get('/api/plain?city_id=x')).body.errors).toEqual([
      { msg: 'city_id is not a parameter here (it takes none)', path: 'city_id' },
    ]);
    const doc = (await a.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.paths['/api/plain'].get.parameters).toEqual([]);
  });
});

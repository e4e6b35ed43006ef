import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeApp, createHttpApp, HttpError } from './http-app.ts';

function app() {
  const a = createHttpApp({ fastify: { logger: false } });
  a.post('/api/things', async (request) => {
    const body = z
      .object({ name: z.string().min(1, 'Name is required'), qty: z.number() })
      .parse(request.body);
    return body;
  });
  a.get('/api/conflict', async () => {
    throw new HttpError(409, 'Not enough stock in the godown.');
  });
  a.get('/api/many', async () => {
    throw new HttpError(
      400,
      'Some custom fields are not valid.',
      Array.from({ length: 70_000 }, (_, i) => ({
        msg: `This custom field does not apply to purchases ${'!'.repeat(1000)}`,
        path: `custom_fields.${String(i).padStart(1000, 'k')}`,
      })),
    );
  });
  a.post('/api/zod-many', async (request) =>
    z.record(z.string(), z.number({ error: 'must be a number' })).parse(request.body),
  );
  a.get('/api/boom', async () => {
    throw new Error('connection string postgres://secret@db leaked?');
  });
  return a;
}

describe('the HTTP error rule', () => {
  it('answers a malformed payload with 400, a message and each problem with its path', async () => {
    const res = await app().inject({ method: 'POST', url: '/api/things', payload: { name: '', qty: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'The request is not valid.',
      errors: [
        { msg: 'Name is required', path: 'name' },
        { msg: expect.any(String), path: 'qty' },
      ],
    });
  });

  it('answers broken JSON with 400 and a message', async () => {
    const res = await app().inject({
      method: 'POST',
      url: '/api/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('keeps the status and message of a business refusal', async () => {
    const res = await app().inject({ method: 'GET', url: '/api/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Not enough stock in the godown.' });
  });

  it('hides the details of an unexpected failure', async () => {
    const res = await app().inject({ method: 'GET', url: '/api/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('postgres://');
    expect(res.json().message).toMatch(/went wrong/);
  });

  it('answers an unknown route with a JSON 404', async () => {
    const res = await app().inject({ method: 'DELETE', url: '/api/nowhere?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'No route for DELETE /api/nowhere' });
  });

  it('answers an oversized body with 413 and a message', async () => {
    const res = await app().inject({
      method: 'POST',
      url: '/api/things',
      payload: { name: 'x'.repeat(1_100_000), qty: 1 },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('answers valid JSON with a __proto__ key with a 400 naming that key, not "not valid JSON"', async () => {
    const a = app();
    const post = (payload: string) =>
      a.inject({
        method: 'POST',
        url: '/api/things',
        headers: { 'content-type': 'application/json' },
        payload,
      });
    const cases = [
      [
        '{"name": "x", "qty": 1, "__proto__": {"isAdmin": true}}',
        '__proto__',
        '"__proto__" is not allowed as a key',
      ],
      [
        '{"name": "x", "custom": {"a": [{"__proto__": 1}]}}',
        'custom.a.0.__proto__',
        '"__proto__" is not allowed as a key',
      ],
      // Written with escapes, it is the same key once parsed.
      ['{"\\u005f_proto__": {}}', '__proto__', '"__proto__" is not allowed as a key'],
      [
        '{"a": {"constructor": {"prototype": {"x": 1}}}}',
        'a.constructor',
        '"constructor" holding "prototype" is not allowed',
      ],
    ] as const;
    for (const [payload, path, msg] of cases) {
      const res = await post(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toEqual({ message: 'The request is not valid.', errors: [{ msg, path }] });
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    // A name that merely looks like one is an ordinary value; broken and empty JSON say so.
    expect((await post('{"name": "constructor", "qty": 1, "note": "__proto__"}')).json()).toEqual({
      name: 'constructor',
      qty: 1,
    });
    expect((await post('{"name": ')).json().message).toMatch(/not valid JSON/);
    expect((await post('')).json().message).toMatch(/cannot be empty/);
  });

  it('bounds an error answer to a few kB: the first 20 problems, clipped, and how many there were', async () => {
    const a = app();
    const many = await a.inject({ method: 'GET', url: '/api/many' });
    expect(many.statusCode).toBe(400);
    expect(many.body.length).toBeLessThan(12_000);
    const body = many.json();
    expect(body.message).toBe(
      'Some custom fields are not valid. There are 70,000 problems; the first 20 are listed.',
    );
    expect(body.errors).toHaveLength(20);
    expect(body.errors[0].msg).toMatch(/^This custom field does not apply to purchases !+\.\.\.$/);
    expect(body.errors[0].path).toMatch(/^custom_fields\.k+\.\.\.$/);
    expect(body.errors[0].path).toHaveLength(203);

    // A schema's own issues are bounded the same way, and still name their fields.
    const payload = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`f${i}`, 'x']));
    const zod = await a.inject({ method: 'POST', url: '/api/zod-many', payload });
    expect(zod.statusCode).toBe(400);
    expect(zod.body.length).toBeLessThan(3_000);
    expect(zod.json().message).toBe(
      'The request is not valid. There are 30,000 problems; the first 20 are listed.',
    );
    expect(zod.json().errors[0]).toEqual({ msg: 'must be a number', path: 'f0' });
  });
});

describe('closeApp (issue #26: a clean shutdown finishes what is in flight)', () => {
  it('waits for a handler whose client went away, which fastify close alone does not', async () => {
    const app = createHttpApp({ fastify: { logger: false } });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const steps: string[] = [];
    app.get('/api/slow', async () => {
      started();
      await held;
      steps.push('handler finished');
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    // A client that sends the request and goes away before the answer.
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('GET /api/slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await running;
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));

    const closing = closeApp(app).then(() => steps.push('closed'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(steps).toEqual([]); // fastify's close has returned (no connection is open), closeApp has not
    release();
    await closing;
    expect(steps).toEqual(['handler finished', 'closed']);
  });

  it('returns when nothing runs, and gives up on a handler that never ends after waitMs', async () => {
    const app = createHttpApp({ fastify: { logger: false } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await closeApp(app);

    const stuck = createHttpApp({ fastify: { logger: false } });
    stuck.get('/api/stuck', () => new Promise(() => {}));
    await stuck.listen({ port: 0, host: '127.0.0.1' });
    const { port } = stuck.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('GET /api/stuck HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    // A handler that never ends does not hold the shutdown for ever (this would time out).
    await closeApp(stuck, 200);
  });
});

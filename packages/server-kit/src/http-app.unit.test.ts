import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHttpApp, HttpError } from './http-app.ts';

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
});

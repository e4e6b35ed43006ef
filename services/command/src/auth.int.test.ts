import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type CommandTestApp, commandTestApp } from './testing/command-app.ts';

describe('signing in and staying signed in', () => {
  let t: CommandTestApp;
  beforeAll(async () => {
    t = await commandTestApp();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const newUser = async (fields: Record<string, unknown>) => {
    const res = await t.call('POST', '/api/masters/users', t.adminToken, {
      name: 'Someone',
      password: 'secret-pw',
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };

  it('signs the first Admin in with the configured email (any case) and answers the token and the user', async () => {
    const res = await t.call('POST', '/api/auth/login', undefined, {
      email: ' Admin@Test.Local ',
      password: ADMIN.password,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(body.user).toEqual({
      id: expect.any(String),
      name: 'Administrator',
      email: ADMIN.email,
      phone: null,
      role: 'Admin',
      is_active: true,
    });
    expect(JSON.stringify(body)).not.toMatch(/argon2|password/i);
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const wrong = await t.call('POST', '/api/auth/login', undefined, {
      email: ADMIN.email,
      password: 'nope-nope',
    });
    const unknown = await t.call('POST', '/api/auth/login', undefined, {
      email: 'ghost@test.local',
      password: 'nope-nope',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'The email or password is not correct.' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('answers a login with characters no email can hold with a 400, not a server error', async () => {
    const res = await t.call('POST', '/api/auth/login', undefined, { email: 'a\u0000b', password: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { msg: 'Email contains characters that cannot be stored', path: 'email' },
    ]);
  });

  it('asks for the missing fields', async () => {
    const res = await t.call('POST', '/api/auth/login', undefined, { email: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { msg: 'Email is required', path: 'email' },
        { msg: 'Password is required', path: 'password' },
      ]),
    );
  });

  it('stops checking passwords for an account after 5 failures', async () => {
    await newUser({ email: 'target@test.local' });
    for (let i = 0; i < 5; i++) {
      expect(
        (
          await t.call('POST', '/api/auth/login', undefined, {
            email: 'target@test.local',
            password: 'bad-guess',
          })
        ).statusCode,
      ).toBe(401);
    }
    const limited = await t.call('POST', '/api/auth/login', undefined, {
      email: 'target@test.local',
      password: 'secret-pw',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Too many failed sign-in attempts/);
  });

  it('refuses an inactive user, and ends a session at once when the user is deactivated or deleted', async () => {
    const inactive = await newUser({ email: 'inactive@test.local', is_active: false });
    expect(inactive).toBeTruthy();
    const res = await t.call('POST', '/api/auth/login', undefined, {
      email: 'inactive@test.local',
      password: 'secret-pw',
    });
    // As a wrong password answers: no hint that the account exists but is switched off.
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'The email or password is not correct.' });
    const wrong = await t.call('POST', '/api/auth/login', undefined, {
      email: 'inactive@test.local',
      password: 'not-the-password',
    });
    expect({ status: wrong.statusCode, body: wrong.json() }).toEqual({
      status: res.statusCode,
      body: res.json(),
    });

    const id = await newUser({ email: 'soon-gone@test.local', role: 'Manager' });
    const token = await t.login('soon-gone@test.local', 'secret-pw');
    const city = { name: 'Pune', currency_name: 'INR', rate: 1 };
    expect((await t.call('POST', '/api/masters/cities', token, city)).statusCode).toBe(201);
    const put = await t.call('PUT', `/api/masters/users/${id}`, t.adminToken, {
      name: 'Someone',
      email: 'soon-gone@test.local',
      role: 'Manager',
      is_active: false,
    });
    expect(put.statusCode, put.body).toBe(200);
    const after = await t.call('POST', '/api/masters/cities', token, city);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toMatch(/inactive/);

    const id2 = await newUser({ email: 'deleted@test.local', role: 'Manager' });
    const token2 = await t.login('deleted@test.local', 'secret-pw');
    expect((await t.call('DELETE', `/api/masters/users/${id2}`, t.adminToken)).statusCode).toBe(200);
    const gone = await t.call('POST', '/api/masters/cities', token2, city);
    expect(gone.statusCode).toBe(401);
    expect(
      (
        await t.call('POST', '/api/auth/login', undefined, {
          email: 'deleted@test.local',
          password: 'secret-pw',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('refuses calls without a token, with a forged or expired one, or with alg none', async () => {
    const city = { name: 'X', currency_name: 'INR', rate: 1 };
    expect((await t.call('POST', '/api/masters/cities', undefined, city)).json()).toEqual({
      message: 'You are not signed in.',
    });
    expect((await t.call('POST', '/api/masters/cities', 'not.a.token', city)).statusCode).toBe(401);
    const [, payload] = t.adminToken.split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expect((await t.call('POST', '/api/masters/cities', none, city)).statusCode).toBe(401);
    const forged = await new SignJWT({ role: 'Admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setIssuer('bahi')
      .setAudience('bahi-api')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('some-other-secret-some-other-secret'));
    expect((await t.call('POST', '/api/masters/cities', forged, city)).statusCode).toBe(401);
    const adminId = (await t.deps.tokens.verify(t.adminToken)).userId;
    const expired = await new SignJWT({ role: 'Admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(adminId)
      .setIssuer('bahi')
      .setAudience('bahi-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode('test-secret-test-secret-test-secret-!!'));
    const res = await t.call('POST', '/api/masters/cities', expired, city);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/expired/);
  });

  it('never stores a password or its hash in any event', async () => {
    await newUser({ email: 'secret-holder@test.local', password: 'very-secret-words' });
    const all = await t.eventStore.readAll(0n, 100_000);
    const text = JSON.stringify(all.map((e) => ({ data: e.data, metadata: e.metadata })));
    expect(text).not.toContain('very-secret-words');
    expect(text).not.toContain(ADMIN.password);
    expect(text).not.toMatch(/\$argon2/);
    expect(all.some((e) => e.type === 'UserCreated')).toBe(true);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  distributedEnvSchema,
  loadConfig,
  resolveFileVariables,
  standaloneEnvSchema,
} from './config.ts';

const problems = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('configuration from the environment', () => {
  it('gives the standalone defaults', () => {
    const config = loadConfig(standaloneEnvSchema, {});
    expect(config).toMatchObject({ PORT: 3000, BAHI_DATA_DIR: './data', LOG_LEVEL: 'warn' });
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig(standaloneEnvSchema, { PORT: '' }).PORT).toBe(3000);
  });

  it('names the variable of a bad value', () => {
    expect(problems(() => loadConfig(standaloneEnvSchema, { PORT: 'abc' }))).toEqual([
      { variable: 'PORT', message: 'must be a port number' },
    ]);
    expect(problems(() => loadConfig(standaloneEnvSchema, { PORT: '70000' }))[0]).toMatchObject({
      variable: 'PORT',
    });
    expect(problems(() => loadConfig(standaloneEnvSchema, { LOG_LEVEL: 'loud' }))[0]).toMatchObject({
      variable: 'LOG_LEVEL',
    });
    expect(problems(() => loadConfig(standaloneEnvSchema, { BAHI_ADMIN_EMAIL: 'nope' }))[0]).toEqual({
      variable: 'BAHI_ADMIN_EMAIL',
      message: 'must be an email address',
    });
  });

  it('requires DATABASE_URL in distributed mode and checks URL schemes', () => {
    expect(problems(() => loadConfig(distributedEnvSchema, {}))).toEqual([
      { variable: 'DATABASE_URL', message: 'is required' },
    ]);
    expect(problems(() => loadConfig(distributedEnvSchema, { DATABASE_URL: 'mysql://x' }))[0]).toMatchObject({
      variable: 'DATABASE_URL',
      message: 'must be a URL starting with postgres:// or postgresql://',
    });
    expect(
      problems(() =>
        loadConfig(distributedEnvSchema, { DATABASE_URL: 'postgres://h/db', ESDB_URL: 'http://x' }),
      )[0],
    ).toMatchObject({ variable: 'ESDB_URL' });
    const ok = loadConfig(distributedEnvSchema, {
      DATABASE_URL: 'postgres://h/db',
      ESDB_URL: 'esdb://es:2113?tls=false',
      REDIS_URL: 'redis://r:6379',
    });
    expect(ok.ESDB_URL).toBe('esdb://es:2113?tls=false');
  });

  it('lists every problem at once in its message', () => {
    const error = (() => {
      try {
        loadConfig(distributedEnvSchema, { REDIS_URL: 'nope', BAHI_DB_POOL_SIZE: '0' });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/DATABASE_URL: is required/);
    expect(error?.message).toMatch(/REDIS_URL: must be a URL/);
    expect(error?.message).toMatch(/BAHI_DB_POOL_SIZE/);
  });

  it('takes the queue prefix and the pool size from the environment, defaults unchanged', () => {
    const base = { DATABASE_URL: 'postgres://h/db' };
    expect(loadConfig(distributedEnvSchema, base)).toMatchObject({
      BAHI_QUEUE_PREFIX: 'bahi',
      BAHI_DB_POOL_SIZE: 10,
    });
    expect(
      loadConfig(distributedEnvSchema, { ...base, BAHI_QUEUE_PREFIX: 'shop-2', BAHI_DB_POOL_SIZE: '4' }),
    ).toMatchObject({ BAHI_QUEUE_PREFIX: 'shop-2', BAHI_DB_POOL_SIZE: 4 });
    expect(problems(() => loadConfig(distributedEnvSchema, { ...base, BAHI_QUEUE_PREFIX: 'a:b' }))).toEqual([
      { variable: 'BAHI_QUEUE_PREFIX', message: expect.stringMatching(/no ":"/) },
    ]);
    expect(problems(() => loadConfig(distributedEnvSchema, { ...base, BAHI_DB_POOL_SIZE: '500' }))).toEqual([
      { variable: 'BAHI_DB_POOL_SIZE', message: 'must be between 1 and 200' },
    ]);
  });

  it('reads the trusted proxies as a list of addresses, ranges or presets, and refuses anything else', () => {
    const base = { DATABASE_URL: 'postgres://h/db' };
    expect(loadConfig(distributedEnvSchema, base).BAHI_TRUSTED_PROXIES).toBeUndefined();
    expect(
      loadConfig(distributedEnvSchema, {
        ...base,
        BAHI_TRUSTED_PROXIES: ' 10.0.0.5, 172.16.0.0/12,::1,uniquelocal',
      }).BAHI_TRUSTED_PROXIES,
    ).toEqual(['10.0.0.5', '172.16.0.0/12', '::1', 'uniquelocal']);
    for (const bad of ['gateway', '10.0.0.0/33', '10.0.0.1/8/2', '*'])
      expect(
        problems(() => loadConfig(distributedEnvSchema, { ...base, BAHI_TRUSTED_PROXIES: bad })),
      ).toEqual([
        { variable: 'BAHI_TRUSTED_PROXIES', message: expect.stringMatching(/comma-separated addresses/) },
      ]);
  });
});

describe('variables from files (X_FILE, for mounted secrets)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const base = { DATABASE_URL: 'postgres://h/db' };

  it('reads X from the file X_FILE names, without its trailing line break', () => {
    const secret = 'a-secret-from-a-file-that-is-long-enough';
    const config = loadConfig(distributedEnvSchema, {
      DATABASE_URL_FILE: file('db', 'postgres://user:pw@db/bahi\n'),
      BAHI_JWT_SECRET_FILE: file('jwt', `${secret}\n`),
      BAHI_ADMIN_PASSWORD_FILE: file('admin', 'pass word 1'),
    });
    expect(config.DATABASE_URL).toBe('postgres://user:pw@db/bahi');
    expect(config.BAHI_JWT_SECRET).toBe(secret);
    expect(config.BAHI_ADMIN_PASSWORD).toBe('pass word 1');
  });

  it('checks what the file holds like the variable itself', () => {
    expect(
      problems(() =>
        loadConfig(distributedEnvSchema, { ...base, BAHI_JWT_SECRET_FILE: file('short', 'x\n') }),
      ),
    ).toEqual([{ variable: 'BAHI_JWT_SECRET', message: expect.stringMatching(/at least 32/) }]);
  });

  it('names X_FILE when its file cannot be read, or when X is set too', () => {
    const missing = join(dir, 'missing');
    expect(problems(() => loadConfig(distributedEnvSchema, { DATABASE_URL_FILE: missing }))).toEqual([
      { variable: 'DATABASE_URL_FILE', message: `cannot read ${missing} (ENOENT)` },
    ]);
    expect(
      problems(() =>
        loadConfig(distributedEnvSchema, {
          ...base,
          BAHI_ADMIN_PASSWORD: 'password-1',
          BAHI_ADMIN_PASSWORD_FILE: file('pw', 'password-2'),
        }),
      ),
    ).toEqual([
      {
        variable: 'BAHI_ADMIN_PASSWORD_FILE',
        message: 'set BAHI_ADMIN_PASSWORD or BAHI_ADMIN_PASSWORD_FILE, not both',
      },
    ]);
  });

  it('leaves BAHI_LICENSE_FILE a path the server reads (and re-reads), not a value', () => {
    const path = file('license.jws', 'header.payload.signature');
    const config = loadConfig(distributedEnvSchema, { ...base, BAHI_LICENSE_FILE: path });
    expect(config.BAHI_LICENSE_FILE).toBe(path);
    expect(config.BAHI_LICENSE).toBeUndefined();
  });

  it('resolves named variables outside a schema (the WhatsApp token)', () => {
    const { env, problems: found } = resolveFileVariables(
      { WHATSAPP_TOKEN_FILE: file('wa', 'token-1\n'), OTHER_FILE: '/nowhere' },
      ['WHATSAPP_TOKEN'],
    );
    expect(found).toEqual([]);
    expect(env.WHATSAPP_TOKEN).toBe('token-1');
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError, distributedEnvSchema, loadConfig, standaloneEnvSchema } from './config.ts';

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
});

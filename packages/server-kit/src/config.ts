import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: ReadonlyArray<{ variable: string; message: string }>) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`);
  }
}

const port = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 (any free port) and 65535')
    .max(65535, 'must be between 0 (any free port) and 65535')
    .default(fallback);

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    );

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');
const pollMs = z.coerce.number().int().min(10, 'must be at least 10').max(60_000).default(500);

const PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyEntry = (entry: string) => {
  if (PROXY_PRESETS.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address || !isIP(address)) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
};

/**
 * The proxies (the gateway) whose X-Forwarded-For is believed: comma-separated addresses,
 * CIDR ranges, or loopback / linklocal / uniquelocal. Unset: no proxy is trusted, and a
 * request's address is the connection's (behind a gateway, the gateway's for every user).
 */
const trustedProxies = z
  .string()
  .trim()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .refine(
    (entries) => entries.every(isProxyEntry),
    'must be comma-separated addresses or CIDR ranges (10.0.0.0/8), or loopback, linklocal, uniquelocal',
  )
  .optional();

/** What a process that runs rebuilds (the projector, the standalone) reads besides. */
export const rebuildEnv = {
  /** Events a rebuild reads from the log at a time (default 5000 on Postgres, 1000 on PGlite). */
  BAHI_REBUILD_BATCH_SIZE: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1, 'must be between 1 and 10000')
    .max(10_000, 'must be between 1 and 10000')
    .optional(),
};

/** What every service process reads from its environment. */
export const baseEnvSchema = z.object({
  LOG_LEVEL: logLevel,
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  BAHI_SUBSCRIPTION_POLL_MS: pollMs,
  BAHI_TRUSTED_PROXIES: trustedProxies,
  /** Live streams (GET /api/events) this process holds open at most, all users together (503 after). */
  BAHI_MAX_STREAMS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100_000, 'must be at most 100000')
    .default(1000),
});

const secret = z.string().min(32, 'must be at least 32 characters (a long random string)');

/** Where the license and its public key come from: a file, or the text itself. */
const licenseVars = {
  BAHI_LICENSE_FILE: z.string().trim().min(1).optional(),
  BAHI_LICENSE: z.string().trim().min(1).optional(),
  BAHI_LICENSE_PUBLIC_KEY_FILE: z.string().trim().min(1).optional(),
  BAHI_LICENSE_PUBLIC_KEY: z.string().trim().min(1).optional(),
};

export const standaloneEnvSchema = baseEnvSchema.extend({
  ...rebuildEnv,
  // One person at a terminal: request logs would bury the start banner.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  PORT: port(3000),
  BAHI_DATA_DIR: z.string().trim().min(1, 'must not be empty').default('./data'),
  BAHI_FRONTENDS_DIR: z.string().trim().min(1).default('./frontends'),
  /** 1: on a store with no business yet, load the small demo business (npm run seed -- --scale small). */
  BAHI_DEMO: z.enum(['0', '1'], { error: 'must be 0 or 1' }).default('0'),
  BAHI_ADMIN_EMAIL: z.email('must be an email address').default('admin@bahi.local'),
  BAHI_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('bahi-admin-2026'),
  /** A directory: the app backs the books up there once a day by itself (README, "Backups"). Unset: no daily backup. */
  BAHI_BACKUP_DIR: z.string().trim().min(1, 'must not be empty').optional(),
  /** How many backups the app keeps in its backup directory (older ones are deleted). */
  BAHI_BACKUP_KEEP: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 1000')
    .max(1000, 'must be between 1 and 1000')
    .default(7),
  ...licenseVars,
});

export const distributedEnvSchema = baseEnvSchema.extend({
  BAHI_JWT_SECRET: secret.optional(),
  BAHI_ADMIN_EMAIL: z.email('must be an email address').optional(),
  BAHI_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  ESDB_URL: url(['esdb:', 'esdb+discover:']).optional(),
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  /** Postgres connections this process keeps open at most (each also holds one for LISTEN). */
  BAHI_DB_POOL_SIZE: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 200')
    .max(200, 'must be between 1 and 200')
    .default(10),
  /**
   * The Redis key prefix of the report job queue and its files: query and reports-worker must
   * agree; two deployments on one Redis need two prefixes.
   */
  BAHI_QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
      'must be 1-64 letters, digits, ".", "_" or "-" (no ":" or spaces), starting with a letter or digit',
    )
    .default('bahi'),
  /**
   * The service holding the other half of the API, whose operations GET /api/openapi.json and
   * /api/docs take in (the query service names the command service, e.g. http://command:3001).
   */
  BAHI_CONTRACT_PEER_URL: url(['http:', 'https:']).optional(),
  ...licenseVars,
});

export type StandaloneEnv = z.infer<typeof standaloneEnvSchema>;
export type DistributedEnv = z.infer<typeof distributedEnvSchema>;

type Problem = { variable: string; message: string };

/**
 * `X_FILE=/run/secrets/x` gives X the content of that file (Docker and compose secrets), for
 * each X in `names` whose `X_FILE` is set. One trailing line break is dropped (files written
 * with echo end with one). Setting both X and X_FILE, or a file that cannot be read, is a
 * problem naming the variable. Empty values count as unset.
 */
export function resolveFileVariables(
  env: NodeJS.ProcessEnv,
  names: Iterable<string>,
): { env: NodeJS.ProcessEnv; problems: Problem[] } {
  const out: NodeJS.ProcessEnv = { ...env };
  const problems: Problem[] = [];
  for (const name of names) {
    const fileVariable = `${name}_FILE`;
    const path = env[fileVariable];
    if (path === undefined || path === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push({ variable: fileVariable, message: `set ${name} or ${fileVariable}, not both` });
      continue;
    }
    try {
      out[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      problems.push({ variable: fileVariable, message: `cannot read ${path} (${code})` });
    }
  }
  return { env: out, problems };
}

/**
 * The schema's own variables that may come from a file: every one but those that are
 * themselves named X_FILE (BAHI_LICENSE_FILE is a path the server re-reads, not a secret).
 */
function fileBackedNames(schema: z.ZodType): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  const keys = Object.keys(schema.shape);
  return keys.filter((key) => !key.endsWith('_FILE') && !keys.includes(`${key}_FILE`));
}

/**
 * Parses the environment; a bad or missing value throws a ConfigError naming the
 * variable. Empty strings count as unset, so `PORT=` falls back to the default. Any variable
 * of the schema may instead be read from a file named by `<VARIABLE>_FILE`.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const fromFiles = resolveFileVariables(env, fileBackedNames(schema));
  const cleaned = Object.fromEntries(
    Object.entries(fromFiles.env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = schema.safeParse(cleaned);
  if (parsed.success && fromFiles.problems.length === 0) return parsed.data;
  const failedFiles = new Set(fromFiles.problems.map((p) => p.variable.replace(/_FILE$/, '')));
  throw new ConfigError([
    ...fromFiles.problems,
    ...(parsed.success ? [] : parsed.error.issues)
      .map((issue) => {
        const variable = String(issue.path[0] ?? '(environment)');
        return { variable, message: cleaned[variable] === undefined ? 'is required' : issue.message };
      })
      // "X: is required" says nothing more than "X_FILE: cannot read ...".
      .filter((problem) => !failedFiles.has(problem.variable)),
  ]);
}

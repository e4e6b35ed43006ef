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

/** What every service process reads from its environment. */
export const baseEnvSchema = z.object({
  LOG_LEVEL: logLevel,
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  BAHI_SUBSCRIPTION_POLL_MS: pollMs,
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
  // One person at a terminal: request logs would bury the start banner.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  PORT: port(3000),
  BAHI_DATA_DIR: z.string().trim().min(1, 'must not be empty').default('./data'),
  BAHI_FRONTENDS_DIR: z.string().trim().min(1).default('./frontends'),
  /** 1: on a store with no business yet, load the small demo business (npm run seed -- --scale small). */
  BAHI_DEMO: z.enum(['0', '1'], { error: 'must be 0 or 1' }).default('0'),
  BAHI_ADMIN_EMAIL: z.email('must be an email address').default('admin@bahi.local'),
  BAHI_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').default('bahi-admin-2026'),
  ...licenseVars,
});

export const distributedEnvSchema = baseEnvSchema.extend({
  BAHI_JWT_SECRET: secret.optional(),
  BAHI_ADMIN_EMAIL: z.email('must be an email address').optional(),
  BAHI_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  ESDB_URL: url(['esdb:', 'esdb+discover:']).optional(),
  REDIS_URL: url(['redis:', 'rediss:']).optional(),
  BAHI_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  ...licenseVars,
});

export type StandaloneEnv = z.infer<typeof standaloneEnvSchema>;
export type DistributedEnv = z.infer<typeof distributedEnvSchema>;

/**
 * Parses the environment; a bad or missing value throws a ConfigError naming the
 * variable. Empty strings count as unset, so `PORT=` falls back to the default.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map((issue) => {
      const variable = String(issue.path[0] ?? '(environment)');
      return { variable, message: cleaned[variable] === undefined ? 'is required' : issue.message };
    }),
  );
}

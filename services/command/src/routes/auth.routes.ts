import { isStorableText, licenseStatus, loginAnswer } from '@bahi/contracts';
import {
  appendToLog,
  HttpError,
  LICENSE_STREAM,
  requireWriter,
  type ZodTypeProvider,
} from '@bahi/server-kit';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { userHoldingEmail } from '../auth/users.ts';
import type { CommandDeps } from '../deps.ts';
import { requestMeta } from '../request-meta.ts';

const loginInput = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(254, 'Email can be at most 254 characters')
    .refine(isStorableText, 'Email contains characters that cannot be stored')
    .toLowerCase(),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
});

const loginSchema = {
  summary: 'Sign in: a session token for the Authorization header',
  tags: ['auth'],
  body: loginInput,
  response: { 200: loginAnswer },
};
const retryLicenseSchema = {
  summary: 'Read the installed license again',
  tags: ['auth'],
  response: { 200: licenseStatus },
};

const WRONG = 'The email or password is not correct.';

export async function registerAuthRoutes(app: FastifyInstance, deps: CommandDeps): Promise<void> {
  // Who may ask is the policy's 'license-check' area (every role: the License Invalid page's
  // Retry is offered to whoever is signed in). It is a read that may write, so (issue #16) it appends LicenseChecked only when the outcome differs from the last one
  // recorded, and one user may ask at most RETRY_LIMIT times a minute (429 after).
  const RETRY_LIMIT = 10;
  const RETRY_WINDOW_MS = 60_000;
  const retries = new Map<string, number[]>();
  let recorded: { version: bigint; outcome: string | undefined } = { version: -1n, outcome: undefined };
  // Fields in a fixed order: jsonb does not keep the order they were written in.
  const outcomeOf = (d: Record<string, unknown>) =>
    JSON.stringify([d.is_valid, d.reason ?? null, d.status ?? null, d.expires_at ?? null]);
  const lastRecorded = async () => {
    const newer = await deps.eventStore.readStream(LICENSE_STREAM, { fromVersion: recorded.version + 1n });
    const last = newer.at(-1);
    if (last)
      recorded = { version: last.streamVersion, outcome: outcomeOf(last.data as Record<string, unknown>) };
    return recorded.outcome;
  };
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post('/api/auth/retry-license-check', { schema: retryLicenseSchema }, async (request, reply) => {
    const me = requireWriter(request, 'license-check');
    const now = Date.now();
    const mine = (retries.get(me.id) ?? []).filter((at) => now - at < RETRY_WINDOW_MS);
    if (mine.length >= RETRY_LIMIT) {
      const wait = Math.ceil((mine[0]! + RETRY_WINDOW_MS - now) / 1000);
      reply.header('retry-after', String(wait));
      throw new HttpError(
        429,
        `The license was checked ${RETRY_LIMIT} times in the last minute. Please try again in ${wait} seconds.`,
      );
    }
    mine.push(now);
    if (retries.size >= 10_000) retries.clear();
    retries.set(me.id, mine);
    const info = await deps.license.reload();
    const data = {
      is_valid: info.isValid,
      reason: info.reason,
      status: info.config?.status ?? null,
      expires_at: info.config?.expires_at ?? null,
    };
    if ((await lastRecorded()) !== outcomeOf(data))
      await appendToLog(
        deps.eventStore,
        LICENSE_STREAM,
        [{ type: 'LicenseChecked', data, metadata: requestMeta(request) }],
        'any',
      );
    return info;
  });

  api.post('/api/auth/login', { schema: loginSchema }, async (request, reply) => {
    const { email, password } = request.body;
    // Counted before the (slow) password check: parallel guesses cannot outrun the limit.
    const wait = await deps.limiter.attempt(email, request.ip);
    if (wait > 0) {
      throw new HttpError(
        429,
        `Too many failed sign-in attempts. Please try again in ${Math.ceil(wait / 60_000)} minute(s).`,
      );
    }
    const user = await userHoldingEmail(deps.eventStore, email);
    // The password is checked even for an unknown email, so the answer takes as long.
    const ok = await deps.credentials.check(user?.id ?? '00000000-0000-0000-0000-000000000000', password);
    // An inactive account answers as a wrong password does: the answer tells no one whether an
    // account exists or was switched off (no oracle); an Admin sees it in the user list.
    if (!user || !ok || !user.is_active) throw new HttpError(401, WRONG);
    await deps.limiter.succeeded(email, request.ip);
    const token = await deps.tokens.sign({ userId: user.id, role: user.role });
    // The same session for the live event stream, which a browser opens without headers.
    reply.header(
      'set-cookie',
      `bahi_session=${token}; HttpOnly; SameSite=Strict; Path=/api; Max-Age=${deps.tokens.ttlSeconds}`,
    );
    return {
      token,
      expiresIn: deps.tokens.ttlSeconds,
      user: {
        id: user.id,
        name: user.name,
        email: user.email,
        phone: user.phone,
        role: user.role,
        is_active: user.is_active,
      },
    };
  });
}

import type { LicenseClaims } from '@bahi/contracts';
import { createPostgresEventStore, type EventStore } from '@bahi/event-store';
import { startProjector } from '@bahi/projections';
import { openReadDb } from '@bahi/read-db';
import {
  createHttpApp,
  generateLicenseKeys,
  issueLicense,
  LicenseService,
  registerAuthentication,
  registerLicenseGate,
} from '@bahi/server-kit';
import { createPgliteSqlClient, type SqlClient } from '@bahi/sql-client';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { bootstrapFirstAdmin } from '../auth/bootstrap.ts';
import { type CommandDeps, createCommandDeps, loadSignedInUser, PUBLIC_API_PATHS } from '../deps.ts';
import { registerCommandRoutes } from '../routes.ts';

export const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

export interface CommandTestApp {
  app: FastifyInstance;
  deps: CommandDeps;
  eventStore: EventStore;
  adminToken: string;
  login(email: string, password: string): Promise<string>;
  /** A new user of `role` (`<role>@test.local`, made by the Admin), signed in: its token. */
  signedInAs(role: 'Manager' | 'Viewer' | 'Collector'): Promise<string>;
  call(
    method: 'POST' | 'PUT' | 'DELETE' | 'GET',
    url: string,
    token?: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The command API as the standalone serves it: on an in-memory PGlite by default, or on a
 * given SQL client (a real Postgres), with or without its own projector. Two apps on one
 * Postgres behave like two command processes: they share nothing but the database.
 */
/** A license valid for 30 days unless told otherwise, signed with a key made for the test. */
export async function testLicense(
  claims: Partial<LicenseClaims> = {},
): Promise<{ service: LicenseService; sign(c: Partial<LicenseClaims>): Promise<void> }> {
  const keys = await generateLicenseKeys();
  let jws = '';
  const sign = async (c: Partial<LicenseClaims>) => {
    jws = await issueLicense(keys.privateKeyPem, {
      status: 'Active',
      type: 'Trial',
      expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      grace_period_days: 7,
      expiry_notification_days: 15,
      ...c,
    });
  };
  await sign(claims);
  const service = new LicenseService({ read: async () => ({ license: jws, publicKey: keys.publicKeyPem }) });
  await service.reload();
  return { service, sign };
}

export async function commandTestApp(
  options: { sql?: SqlClient; projector?: boolean; license?: LicenseService } = {},
): Promise<CommandTestApp> {
  const sql = options.sql ?? createPgliteSqlClient(new PGlite());
  const eventStore = await createPostgresEventStore(sql, { pollIntervalMs: 20 });
  const readDb = await openReadDb(sql);
  const projector = options.projector === false ? undefined : startProjector({ eventStore, readDb });
  const deps = await createCommandDeps(
    { eventStore, readDb, sql },
    {
      jwtSecret: 'test-secret-test-secret-test-secret-!!',
      limits: { perAccountAddress: 5, perAddress: 50 },
      license: options.license ?? (await testLicense()).service,
    },
  );
  await bootstrapFirstAdmin(deps, ADMIN);
  const app = createHttpApp({ fastify: { logger: false } });
  registerAuthentication(app, {
    tokens: deps.tokens,
    loadUser: loadSignedInUser(deps),
    publicPaths: PUBLIC_API_PATHS,
  });
  registerLicenseGate(app, deps.license);
  await registerCommandRoutes(app, deps);
  await app.ready();

  const call: CommandTestApp['call'] = (method, url, token, payload) =>
    app.inject({
      method,
      url,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const login = async (email: string, password: string) => {
    const res = await call('POST', '/api/auth/login', undefined, { email, password });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return res.json().token as string;
  };
  const adminToken = await login(ADMIN.email, ADMIN.password);
  const signedInAs = async (role: 'Manager' | 'Viewer' | 'Collector') => {
    const email = `${role.toLowerCase()}@test.local`;
    const res = await call('POST', '/api/masters/users', adminToken, {
      name: role,
      email,
      password: 'secret-pw',
      role,
    });
    if (res.statusCode !== 201) throw new Error(`the ${role} was not created: ${res.statusCode} ${res.body}`);
    return login(email, 'secret-pw');
  };
  return {
    app,
    deps,
    eventStore,
    adminToken,
    login,
    signedInAs,
    call,
    async close() {
      await app.close();
      await projector?.stop();
      await eventStore.close();
      await sql.close();
    },
  };
}

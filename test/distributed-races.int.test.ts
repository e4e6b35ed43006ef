// Issue #27: rules that span records hold with several command copies. Two command copies behind
// the real nginx gateway, on Postgres, with a query service and a projector. Twenty rounds of a
// funder's city change racing five purchases for that funder in its old city, and twenty rounds
// of a product's delete racing five purchases of that product. Whatever wins, the books must not
// hold a funder with ledger lines in another city's currency, nor a deleted product that a
// purchase still refers to: checked over the read models, and again after a rebuild of them from
// the log. (Before the locks of write-scope.ts, 18 and 13 rounds of 20 broke them.)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, nginxAvailable, startGateway } from './gateway.ts';
import { call, json } from './http.ts';
import { writeTestLicense } from './license.ts';
import { withTestDatabase } from './postgres.ts';
import { freePort, type Proc, run, waitFor } from './processes.ts';

const root = resolve(import.meta.dirname, '..');
const databaseUrl = process.env.DATABASE_URL;
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };
const ROUNDS = 20;
const RACERS = 5;

describe.skipIf(!databaseUrl || !nginxAvailable)('cross-record rules with two command copies', () => {
  let db: Awaited<ReturnType<typeof withTestDatabase>>;
  let dir = '';
  let gateway: Gateway | undefined;
  const procs: Record<string, Proc> = {};
  const ports: Record<string, number> = {};
  let token = '';
  let books: pg.Client;

  beforeAll(async () => {
    db = await withTestDatabase('races');
    dir = await mkdtemp(join(tmpdir(), 'bahi-races-'));
    await writeTestLicense(dir);
    const common = {
      DATABASE_URL: db.url,
      HOST: '127.0.0.1',
      BAHI_DB_POOL_SIZE: '4',
      BAHI_SUBSCRIPTION_POLL_MS: '200',
      BAHI_JWT_SECRET: 'a-test-secret-that-is-long-enough-for-hs256',
      BAHI_LICENSE_FILE: join(dir, 'license.jws'),
      BAHI_LICENSE_PUBLIC_KEY_FILE: join(dir, 'public.pem'),
      BAHI_TRUSTED_PROXIES: '127.0.0.1',
      LOG_LEVEL: 'warn',
    };
    const services: Record<string, string> = {
      command1: 'services/command/src/main.ts',
      command2: 'services/command/src/main.ts',
      query: 'services/query/src/main.ts',
      projector: 'services/projector/src/main.ts',
    };
    for (const [name, main] of Object.entries(services)) {
      ports[name] = await freePort();
      procs[name] = run(
        tsx,
        [main],
        {
          ...common,
          PORT: String(ports[name]),
          ...(name.startsWith('command')
            ? { BAHI_ADMIN_EMAIL: ADMIN.email, BAHI_ADMIN_PASSWORD: ADMIN.password }
            : {}),
        },
        root,
      );
    }
    for (const name of Object.keys(services)) {
      await waitFor(
        `${name} ready`,
        async () => {
          // Ready, or the query service degraded for want of a reports worker (none runs here).
          const r = await call(ports[name]!, 'GET', '/api/ready');
          return r.status === 200 && ['ready', 'degraded'].includes(json(r).status as string)
            ? true
            : undefined;
        },
        90_000,
      ).catch((error) => {
        throw new Error(`${(error as Error).message}\n${procs[name]!.output().slice(-3000)}`);
      });
    }
    gateway = await startGateway({
      commandUpstream: [`127.0.0.1:${ports.command1}`, `127.0.0.1:${ports.command2}`],
      queryUpstream: `127.0.0.1:${ports.query}`,
      frontendsRoot: dir,
    });
    const login = await call(gateway.port, 'POST', '/api/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    token = json(login).token as string;
    books = new pg.Client({ connectionString: db.url });
    await books.connect();
  }, 180_000);

  afterAll(async () => {
    await books?.end();
    await gateway?.stop();
    for (const p of Object.values(procs)) p.signal('SIGTERM');
    await Promise.all(Object.values(procs).map((p) => p.groupGone().catch(() => p.signal('SIGKILL'))));
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const gw = async (method: string, path: string, body?: unknown) => {
    const r = await call(gateway!.port, method, `/api${path}`, {
      token,
      ...(body === undefined ? {} : { body }),
    });
    return { status: r.status, body: r.body ? json(r) : {} };
  };
  const create = async (path: string, body: unknown) => {
    const r = await gw('POST', path, body);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(201);
    return r.body.id as string;
  };
  /** The read models once the projector has applied everything written so far. */
  const caughtUp = () =>
    waitFor(
      'the read models at the head of the log',
      async () => {
        const r = json(await call(ports.query!, 'GET', '/api/ready'));
        const projections = r.projections as Array<{ lag: string }>;
        return projections.every((p) => p.lag === '0') ? true : undefined;
      },
      60_000,
    );
  /** Funders with ledger lines in a currency not their city's; deleted products a live purchase names. */
  const violations = async () => {
    const moved = await books.query(
      `SELECT p.id FROM parties p JOIN cities c ON c.id = p.city_id
        WHERE p.kind = 'Funder'
          AND EXISTS (SELECT 1 FROM journal j WHERE j.account = 'funder:' || p.id AND j.currency <> c.currency_name)`,
    );
    const orphaned = await books.query(
      `SELECT pr.id FROM products pr
        WHERE pr.deleted AND EXISTS (SELECT 1 FROM purchases pu WHERE pu.product_id = pr.id AND NOT pu.deleted)`,
    );
    return { moved: moved.rows.length, orphaned: orphaned.rows.length };
  };

  it(`${ROUNDS} rounds each of a city change and of a delete racing ${RACERS} purchases: none breaks a rule, before or after a rebuild`, async () => {
    const mumbai = await create('/masters/cities', { name: 'Mumbai', currency_name: 'INR', rate: 1 });
    const karachi = await create('/masters/cities', { name: 'Karachi', currency_name: 'PKR', rate: '0.3' });
    const godown = await create('/masters/godowns', { name: 'Bhiwandi' });
    const cumin = await create('/masters/products', { name: 'Cumin' });
    const dev = await create('/masters/funders', { name: 'Dev', city_id: mumbai });
    const purchase = (funder: string, product: string) => ({
      type: 'Godown',
      purchase_date: '2026-11-01',
      city_id: mumbai,
      funder_id: funder,
      product_id: product,
      godown_id: godown,
      rate: 10,
      quantity: 1,
    });
    /** The racers, with the one master write at a different place among them each round. */
    const race = (
      round: number,
      master: () => Promise<{ status: number }>,
      posting: () => Promise<{ status: number }>,
    ) => {
      const racers = Array.from({ length: RACERS }, () => posting);
      racers.splice(round % (RACERS + 1), 0, master);
      return Promise.all(racers.map((f) => f()));
    };

    const outcomes = { moved: 0, moveRefused: 0, deleted: 0, deleteRefused: 0, posted: 0, postRefused: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const funder = await create('/masters/funders', { name: `Funder ${round}`, city_id: mumbai });
      const statuses = await race(
        round,
        () => gw('PUT', `/masters/funders/${funder}`, { name: `Funder ${round}`, city_id: karachi }),
        () => gw('POST', '/transactions/purchases', purchase(funder, cumin)),
      );
      const [move] = statuses.splice(round % (RACERS + 1), 1);
      expect([200, 409], `the move: ${move!.status}`).toContain(move!.status);
      if (move!.status === 200) outcomes.moved++;
      else outcomes.moveRefused++;
      for (const s of statuses) {
        expect([201, 400], `a purchase: ${s.status}`).toContain(s.status);
        if (s.status === 201) outcomes.posted++;
        else outcomes.postRefused++;
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      const product = await create('/masters/products', { name: `Product ${round}` });
      const statuses = await race(
        round,
        () => gw('DELETE', `/masters/products/${product}`),
        () => gw('POST', '/transactions/purchases', purchase(dev, product)),
      );
      const [remove] = statuses.splice(round % (RACERS + 1), 1);
      expect([200, 409], `the delete: ${remove!.status}`).toContain(remove!.status);
      if (remove!.status === 200) outcomes.deleted++;
      else outcomes.deleteRefused++;
      for (const s of statuses) {
        expect([201, 400], `a purchase: ${s.status}`).toContain(s.status);
        if (s.status === 201) outcomes.posted++;
        else outcomes.postRefused++;
      }
    }
    console.info(`races: ${JSON.stringify(outcomes)}`);
    // Both sides won sometimes, or the rounds did not race at all.
    expect(outcomes.posted).toBeGreaterThan(0);
    expect(outcomes.moved + outcomes.deleted).toBeGreaterThan(0);

    await caughtUp();
    expect(await violations()).toEqual({ moved: 0, orphaned: 0 });

    // The same books replayed from the log, swapped in for the live ones.
    const asked = await gw('POST', '/admin/projections/rebuild', { swap: true });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    const rebuild = await waitFor(
      'the rebuild',
      async () => {
        const status = (await gw('GET', '/admin/projections')).body as {
          rebuilds: Array<{ id: string; status: string; report?: { identical: boolean } }>;
        };
        const mine = status.rebuilds.find((b) => b.id === asked.body.id);
        expect(mine?.status).not.toBe('failed');
        return mine?.status === 'done' ? mine : undefined;
      },
      120_000,
    );
    expect(rebuild.report?.identical).toBe(true);
    await caughtUp();
    expect(await violations()).toEqual({ moved: 0, orphaned: 0 });
  }, 300_000);
});

import type { EventStore } from '@bahi/event-store';
import { type ReadDb, readCheckpoints } from '@bahi/read-db';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { registerMetrics } from './metrics.ts';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /**
   * The service still serves most requests without it (the query service without a reports
   * worker): a failure makes the report `degraded` (200), not `not_ready` (503), so a load
   * balancer keeps the process while the report says what is missing.
   */
  optional?: boolean;
}

/** A failed check whose message is fit for anyone to read ("no reports worker is running"). */
export class ReadinessProblem extends Error {}

export interface ReadinessReport {
  status: 'ready' | 'degraded' | 'not_ready';
  service: string;
  checks: Record<string, { ok: boolean; error?: string }>;
  eventStore?: { kind: string; headPosition: string };
  projections: Array<{ name: string; position: string; lag: string; status: string; error: string | null }>;
}

/**
 * What a failed check says to anyone: /api/ready is public, so a database's own error text (hosts,
 * users, schema names) stays in the log.
 */
class CheckTimeout extends Error {}
const unreachable = (app: FastifyInstance, what: string, error: unknown) => {
  if (error instanceof ReadinessProblem) return error.message;
  app.log.error({ err: error }, `readiness: ${what} failed`);
  return error instanceof CheckTimeout ? 'did not answer in time' : 'not reachable';
};

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new CheckTimeout(`${what} did not answer within ${ms} ms`)), ms),
    ),
  ]);

const HEALTH_SCHEMA = {
  summary: 'The process is alive',
  tags: ['health'],
  response: { 200: z.object({ status: z.literal('ok'), service: z.string() }) },
};
const readiness = z.object({
  status: z.enum(['ready', 'degraded', 'not_ready']),
  service: z.string(),
  checks: z.record(z.string(), z.object({ ok: z.boolean(), error: z.string().optional() })),
  eventStore: z.object({ kind: z.string(), headPosition: z.string() }).optional(),
  projections: z.array(
    z.object({
      name: z.string(),
      position: z.string(),
      lag: z.string(),
      status: z.string(),
      error: z.string().nullable(),
    }),
  ),
});
const READY_SCHEMA = {
  summary: 'Whether the event store and the read database answer, and where each projection stands',
  tags: ['health'],
  response: { 200: readiness, 503: readiness },
};

/**
 * GET /api/health: the process is alive. GET /api/ready: the event store answers, and
 * where each projection stands (position, lag behind the head of $all); 503 when a
 * dependency does not answer. Public, so it names no database error (those go to the log).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: { service: string; eventStore: EventStore; readDb: ReadDb; extraChecks?: ReadinessCheck[] },
): void {
  registerMetrics(app, deps);
  // Probes come every few seconds from compose, the gateway and orchestrators: their request
  // lines are not logged (the route logs at warn); a failing check still logs its problem.
  app.get('/api/health', { schema: HEALTH_SCHEMA, logLevel: 'warn' }, async () => ({
    status: 'ok',
    service: deps.service,
  }));

  app.get('/api/ready', { schema: READY_SCHEMA, logLevel: 'warn' }, async (_request, reply) => {
    const report: ReadinessReport = { status: 'ready', service: deps.service, checks: {}, projections: [] };
    let head: bigint | undefined;
    try {
      head = await withTimeout(deps.eventStore.headPosition(), 2000, 'event store');
      report.checks.eventStore = { ok: true };
      report.eventStore = { kind: deps.eventStore.kind, headPosition: head.toString() };
    } catch (error) {
      report.checks.eventStore = { ok: false, error: unreachable(app, 'event store', error) };
    }
    try {
      const checkpoints = await withTimeout(readCheckpoints(deps.readDb), 2000, 'read database');
      report.checks.readDb = { ok: true };
      report.projections = checkpoints.map((c) => ({
        name: c.name,
        position: c.position.toString(),
        lag: head === undefined ? 'unknown' : (head > c.position ? head - c.position : 0n).toString(),
        status: c.status,
        // A stopped projection's error is the database's text: Admins read it in
        // GET /api/admin/projections; here it only says that it stopped.
        error: c.status === 'failed' ? 'stopped after a failure (see GET /api/admin/projections)' : null,
      }));
    } catch (error) {
      report.checks.readDb = { ok: false, error: unreachable(app, 'read database', error) };
    }
    const optional = new Set<string>();
    for (const extra of deps.extraChecks ?? []) {
      if (extra.optional) optional.add(extra.name);
      try {
        await withTimeout(extra.check(), 2000, extra.name);
        report.checks[extra.name] = { ok: true };
      } catch (error) {
        report.checks[extra.name] = { ok: false, error: unreachable(app, extra.name, error) };
      }
    }
    const failed = Object.entries(report.checks).filter(([, c]) => !c.ok);
    if (failed.some(([name]) => !optional.has(name))) report.status = 'not_ready';
    else if (failed.length > 0) report.status = 'degraded';
    return reply.status(report.status === 'not_ready' ? 503 : 200).send(report);
  });
}

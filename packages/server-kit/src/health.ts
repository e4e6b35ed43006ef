import type { EventStore } from '@bahi/event-store';
import { type ReadDb, readCheckpoints } from '@bahi/read-db';
import type { FastifyInstance } from 'fastify';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  service: string;
  checks: Record<string, { ok: boolean; error?: string }>;
  eventStore?: { kind: string; headPosition: string };
  projections: Array<{ name: string; position: string; lag: string; status: string; error: string | null }>;
}

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms),
    ),
  ]);

/**
 * GET /api/health: the process is alive. GET /api/ready: the event store answers, and
 * where each projection stands (position, lag behind the head of $all); 503 when a
 * dependency does not answer.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  deps: { service: string; eventStore: EventStore; readDb: ReadDb; extraChecks?: ReadinessCheck[] },
): void {
  app.get('/api/health', async () => ({ status: 'ok', service: deps.service }));

  app.get('/api/ready', async (_request, reply) => {
    const report: ReadinessReport = { status: 'ready', service: deps.service, checks: {}, projections: [] };
    let head: bigint | undefined;
    try {
      head = await withTimeout(deps.eventStore.headPosition(), 2000, 'event store');
      report.checks.eventStore = { ok: true };
      report.eventStore = { kind: deps.eventStore.kind, headPosition: head.toString() };
    } catch (error) {
      report.checks.eventStore = { ok: false, error: (error as Error).message };
    }
    try {
      const checkpoints = await withTimeout(readCheckpoints(deps.readDb), 2000, 'read database');
      report.checks.readDb = { ok: true };
      report.projections = checkpoints.map((c) => ({
        name: c.name,
        position: c.position.toString(),
        lag: head === undefined ? 'unknown' : (head > c.position ? head - c.position : 0n).toString(),
        status: c.status,
        error: c.error,
      }));
    } catch (error) {
      report.checks.readDb = { ok: false, error: (error as Error).message };
    }
    for (const extra of deps.extraChecks ?? []) {
      try {
        await withTimeout(extra.check(), 2000, extra.name);
        report.checks[extra.name] = { ok: true };
      } catch (error) {
        report.checks[extra.name] = { ok: false, error: (error as Error).message };
      }
    }
    if (Object.values(report.checks).some((c) => !c.ok)) report.status = 'not_ready';
    return reply.status(report.status === 'ready' ? 200 : 503).send(report);
  });
}

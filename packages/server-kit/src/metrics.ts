import type { EventStore } from '@bahi/event-store';
import { type ReadDb, readCheckpoints } from '@bahi/read-db';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';

/**
 * Prometheus metrics (issue #26): one registry per process, scraped at `GET /metrics` on each
 * service's own port (the gateway does not route it: operators scrape the services directly).
 * Counters and histograms are process-wide; the gauges that describe the books (projection lag,
 * rebuild progress, the report queue) are read from their source when scraped, so they are never
 * stale and cost nothing between scrapes.
 *
 *   bahi_http_request_duration_seconds{method,route,status_code}   histogram
 *   bahi_events_appended_total{type}                               counter
 *   bahi_append_duration_seconds                                   histogram (one append call)
 *   bahi_event_store_head_position                                 gauge
 *   bahi_projection_lag_events{projection}                         gauge
 *   bahi_projection_running{projection}                            gauge, 1 running, 0 stopped
 *   bahi_rebuild_running, bahi_rebuild_position, bahi_rebuild_target gauges
 *   bahi_report_queue_jobs{state}                                  gauge (query, worker)
 *   bahi_report_job_duration_seconds{kind,outcome}                 histogram (worker)
 * and Node's own (process_cpu_seconds_total, nodejs_eventloop_lag_seconds, memory, ...).
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const httpDuration = new client.Histogram({
  name: 'bahi_http_request_duration_seconds',
  help: 'HTTP requests by route (the route pattern, not the path) and status, in seconds',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

const eventsAppended = new client.Counter({
  name: 'bahi_events_appended_total',
  help: 'Events appended to the log by this process, by event type',
  labelNames: ['type'] as const,
  registers: [registry],
});

const appendDuration = new client.Histogram({
  name: 'bahi_append_duration_seconds',
  help: 'One append to the event store (one stream, one transaction), in seconds',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  registers: [registry],
});

export const reportJobDuration = new client.Histogram({
  name: 'bahi_report_job_duration_seconds',
  help: 'Report jobs (files, WhatsApp sends) from start to end, by kind and outcome',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});

/** What the gauges read when scraped: each app adds its sources and removes them on close. */
interface BooksSource {
  eventStore: EventStore;
  readDb: ReadDb;
}
const booksSources = new Set<BooksSource>();
type QueueCounts = () => Promise<Record<string, number>>;
const queueSources = new Set<QueueCounts>();

new client.Gauge({
  name: 'bahi_event_store_head_position',
  help: 'Position of the last event in the log',
  registers: [registry],
  async collect() {
    for (const source of booksSources) this.set(Number(await source.eventStore.headPosition()));
  },
});

new client.Gauge({
  name: 'bahi_projection_lag_events',
  help: 'How many positions each projection is behind the head of the log',
  labelNames: ['projection'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const source of booksSources) {
      const head = await source.eventStore.headPosition();
      for (const c of await readCheckpoints(source.readDb))
        this.set({ projection: c.name }, Number(head > c.position ? head - c.position : 0n));
    }
  },
});

new client.Gauge({
  name: 'bahi_projection_running',
  help: 'Each projection: 1 while it runs, 0 once it stopped after a failure',
  labelNames: ['projection'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const source of booksSources)
      for (const c of await readCheckpoints(source.readDb))
        this.set({ projection: c.name }, c.status === 'failed' ? 0 : 1);
  },
});

const rebuildPosition = new client.Gauge({
  name: 'bahi_rebuild_position',
  help: 'The running rebuild: the position it has replayed to (0 when none runs)',
  registers: [registry],
});
const rebuildTarget = new client.Gauge({
  name: 'bahi_rebuild_target',
  help: 'The running rebuild: the position it replays to (0 when none runs)',
  registers: [registry],
});
new client.Gauge({
  name: 'bahi_rebuild_running',
  help: '1 while a rebuild of read models is asked for or running',
  registers: [registry],
  async collect() {
    let running = 0;
    let position = 0;
    let target = 0;
    for (const source of booksSources) {
      const active = await source.readDb
        .selectFrom('projection_rebuilds')
        .select(['position', 'target'])
        .where('status', 'in', ['requested', 'running'])
        .executeTakeFirst();
      if (active) {
        running = 1;
        position = Number(active.position);
        target = Number(active.target);
      }
    }
    this.set(running);
    rebuildPosition.set(position);
    rebuildTarget.set(target);
  },
});

new client.Gauge({
  name: 'bahi_report_queue_jobs',
  help: 'Report jobs on the queue by state (waiting, active, delayed, failed, completed)',
  labelNames: ['state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const counts of queueSources)
      for (const [state, n] of Object.entries(await counts())) this.set({ state }, n);
  },
});

/** The report queue's job counts, for bahi_report_queue_jobs; returns its removal. */
export function watchReportQueue(counts: QueueCounts): () => void {
  queueSources.add(counts);
  return () => queueSources.delete(counts);
}

/** Times one append and counts its events by type: the event log's door (event-log.ts) calls it. */
export async function measureAppend<T>(
  events: readonly { type: string }[],
  append: () => Promise<T>,
): Promise<T> {
  const end = appendDuration.startTimer();
  const result = await append();
  end();
  for (const event of events) eventsAppended.inc({ type: event.type });
  return result;
}

/**
 * `GET /metrics` on this app, HTTP latencies of its routes, and the books' gauges read from its
 * storage. Not under /api: it needs no session, and the gateway never routes it.
 */
export function registerMetrics(app: FastifyInstance, books: BooksSource): void {
  booksSources.add(books);
  app.addHook('onClose', async () => {
    booksSources.delete(books);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === '/metrics') return;
    httpDuration.observe(
      { method: request.method, route: route ?? '(no route)', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
}

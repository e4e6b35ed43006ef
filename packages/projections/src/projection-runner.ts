import type { EventStore, RecordedEvent } from '@bahi/event-store';
import type { ReadDb } from '@bahi/read-db';
import { type Projection, type ProjectorLog, typed } from './projection.ts';
import { loadQuarantined, withoutQuarantined } from './quarantine.ts';

export interface ProjectionRunnerOptions {
  eventStore: EventStore;
  readDb: ReadDb;
  projection: Projection;
  /** Most events applied in one transaction. */
  batchSize?: number;
  /** How long a partial batch waits for more events before it is committed. */
  flushAfterMs?: number;
  /** How often a projection stopped by a failure looks whether it has been resumed. */
  resumePollMs?: number;
  log?: Pick<ProjectorLog, 'info' | 'warn' | 'error'>;
}

const IDLE = Symbol('idle');
const MAX_BACKOFF_MS = 5_000;

/** The projection could not apply a batch: a dead letter that stops this projection. */
class ApplyFailed extends Error {}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Follows $all from the projection's checkpoint and commits each batch of rows together
 * with the new checkpoint. An event the projection cannot apply stops this projection
 * alone: its checkpoint stays before the batch and the error is recorded for the operator.
 * Anything else (a lost connection, a database that is restarting) is retried with backoff
 * from the last committed checkpoint.
 */
/** Connection-level failures are worth retrying; anything else from apply is the projection's. */
function isApplyError(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  const message = String((error as Error)?.message ?? '');
  const transient =
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'EPIPE',
      'ETIMEDOUT',
      '57P01',
      '57P02',
      '57P03',
      '53300',
      '08000',
      '08003',
      '08006',
    ].includes(code) || /Connection terminated|connection is closed|too many clients/i.test(message);
  return !transient;
}

export class ProjectionRunner {
  readonly #options: Required<Omit<ProjectionRunnerOptions, 'log'>> & Pick<ProjectionRunnerOptions, 'log'>;
  #abort = new AbortController();
  #done: Promise<void> | undefined;

  constructor(options: ProjectionRunnerOptions) {
    this.#options = { batchSize: 500, flushAfterMs: 10, resumePollMs: 1000, ...options };
  }

  get name(): string {
    return this.#options.projection.name;
  }

  start(): void {
    this.#done ??= this.#supervise();
  }

  async #supervise(): Promise<void> {
    let backoff = 100;
    while (!this.#abort.signal.aborted) {
      try {
        await this.#run(() => {
          backoff = 100; // progress was made: the next failure starts over
        });
        return;
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        if (error instanceof ApplyFailed) {
          // Stopped, visibly, until an operator resumes it (or a rebuild replaces it).
          this.#options.log?.error({ projection: this.name, error: String(error) }, 'projection stopped');
          await this.#waitForResume();
          if (this.#abort.signal.aborted) return;
          this.#options.log?.info({ projection: this.name }, 'projection resumed');
          backoff = 100;
          continue;
        }
        this.#options.log?.warn(
          { projection: this.name, error: String(error), retryInMs: backoff },
          'projection interrupted; retrying',
        );
        await sleep(backoff, this.#abort.signal);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  async #waitForResume(): Promise<void> {
    const { readDb, resumePollMs } = this.#options;
    while (!this.#abort.signal.aborted) {
      await sleep(resumePollMs, this.#abort.signal);
      if (this.#abort.signal.aborted) return;
      const row = await readDb
        .selectFrom('projection_checkpoints')
        .select('status')
        .where('name', '=', this.name)
        .executeTakeFirst()
        .catch(() => undefined);
      if (row && row.status !== 'failed') return;
    }
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#done;
  }

  async #checkpoint(): Promise<bigint> {
    const { readDb } = this.#options;
    await readDb
      .insertInto('projection_checkpoints')
      .values({ name: this.name, position: 0n })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await readDb
      .selectFrom('projection_checkpoints')
      .select(['position', 'status'])
      .where('name', '=', this.name)
      .executeTakeFirstOrThrow();
    if (row.status === 'failed') {
      // Permanent, not transient: the supervisor must not retry it every few seconds.
      throw new ApplyFailed(`projection ${this.name} is stopped after a failure; resume it first`);
    }
    return BigInt(row.position);
  }

  async #run(onProgress: () => void): Promise<void> {
    const { eventStore, readDb, projection, batchSize, flushAfterMs } = this.#options;
    const from = await this.#checkpoint();
    // Events an operator set aside for this projection (quarantine.ts): read afresh on every
    // (re)start, as a quarantine resumes the projection; later ones arrive in the log itself.
    const quarantined = (await loadQuarantined(eventStore)).get(this.name) ?? new Set<bigint>();
    const subscription = eventStore.subscribe(from, { batchSize, signal: this.#abort.signal });
    const iterator = subscription[Symbol.asyncIterator]();
    let buffer: RecordedEvent[] = [];

    /**
     * Applies a batch and moves the checkpoint past it, in one transaction. When the projection
     * cannot apply a batch of several events, they are applied one by one, so that everything
     * before the failing event is kept and the checkpoint stops right before it: the operator
     * sees which event it is (quarantine.ts `failingEvent`).
     */
    const commit = async (batch: RecordedEvent[]): Promise<void> => {
      const last = batch.at(-1)!.position;
      for (const recorded of batch) {
        const event = typed(recorded);
        if (event.type !== 'EventQuarantined') continue;
        if (event.data.projection === this.name) quarantined.add(BigInt(event.data.position));
      }
      let stage = 'lock' as 'lock' | 'apply' | 'commit';
      try {
        await readDb.transaction().execute(async (tx) => {
          // The checkpoint row is the projection's lock: a rebuild's swap takes it too, and may
          // move the checkpoint past events this subscription has already delivered.
          const row = await tx
            .selectFrom('projection_checkpoints')
            .select(['position', 'status'])
            .where('name', '=', this.name)
            .forUpdate()
            .executeTakeFirstOrThrow();
          if (row.status === 'failed') throw new ApplyFailed(`projection ${this.name} was stopped`);
          const checkpoint = BigInt(row.position);
          const fresh = batch.filter((event) => event.position > checkpoint);
          if (fresh.length === 0) return;
          const pending = withoutQuarantined(fresh, quarantined);
          stage = 'apply';
          if (pending.length > 0) await projection.apply(tx, pending);
          stage = 'commit';
          await tx
            .updateTable('projection_checkpoints')
            .set({ position: last, status: 'running', error: null, updated_at: new Date() })
            .where('name', '=', this.name)
            .execute();
        });
        onProgress();
      } catch (error) {
        // Only the projection's own failure is a dead letter; a database that went away
        // while committing is retried by the supervisor.
        if (error instanceof ApplyFailed) throw error;
        if (stage !== 'apply' || !isApplyError(error)) throw error;
        if (batch.length > 1) {
          for (const event of batch) await commit([event]);
          return; // not reached: one of them fails (or the batch failed only as a whole)
        }
        const event = batch[0]!;
        await readDb
          .updateTable('projection_checkpoints')
          .set({
            status: 'failed',
            error: `${(error as Error).message} (the ${event.type} event at position ${event.position}, stream ${event.streamId})`,
            updated_at: new Date(),
          })
          .where('name', '=', this.name)
          .execute();
        throw new ApplyFailed((error as Error).message);
      }
    };

    const flush = async () => {
      if (buffer.length === 0) return;
      const batch = buffer;
      buffer = [];
      await commit(batch);
    };

    try {
      let next = iterator.next();
      while (!this.#abort.signal.aborted) {
        const result =
          buffer.length > 0
            ? await Promise.race([
                next,
                new Promise<typeof IDLE>((r) => setTimeout(() => r(IDLE), flushAfterMs)),
              ])
            : await next;
        if (result === IDLE) {
          await flush();
          continue;
        }
        if (result.done) break;
        buffer.push(result.value);
        next = iterator.next();
        if (buffer.length >= batchSize) await flush();
      }
      await flush();
    } finally {
      await subscription.close();
    }
  }
}

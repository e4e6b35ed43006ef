import { waitForProjections } from '@bahi/read-db';
import type { CommandDeps } from './deps.ts';

const PROJECTION = 'custom_field_definitions';
/** Most events read between the checkpoint and the client's position (without eventTypesBetween). */
const WINDOW = 500;
const SETTLE_ATTEMPTS = 12;
const SETTLE_PAUSE_MS = 3;

/**
 * Returns once the custom field definitions in the read model are those of the client's last
 * position `seen` (or of the head of the log, when that is lower), so a definition the user
 * just made is always known to the check of their next record.
 *
 * Either the projection has reached that position, or no event between its checkpoint and
 * that position can change it: the projection changes on CustomFieldDefinition* events alone,
 * and the types of the events in between are read from the log (one query). Waiting for the
 * projector instead cost every purchase and sale its lag (~40 ms at 500 writes/s,
 * bench/command-mix), though the definitions rarely change. When the log cannot show the whole stretch (a transaction below
 * it is still open, or the stretch is long) for more than a few tries, or a definition event
 * is in it, this waits as before.
 */
export async function definitionsCurrentAt(
  deps: Pick<CommandDeps, 'eventStore' | 'readDb'>,
  seen: bigint,
): Promise<void> {
  // The target is `seen`, or the head of the log when that is lower (a position no write
  // answered). The head is read only when the first look finds the stretch unsettled: a
  // position beyond the head has no event, so it is never settled; every other write saves the
  // round trip (bench/command-mix).
  let target = seen;
  let headRead = false;
  const capAtHead = async () => {
    if (headRead) return;
    headRead = true;
    const head = await deps.eventStore.headPosition();
    if (head < target) target = head;
  };
  // A transaction below the target that is still open (another append, a projector batch)
  // leaves the stretch unsettled for a few milliseconds: look again shortly before falling
  // back to waiting for the projector (which polls every 15 ms and lags more).
  for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
    if (attempt > 0) await capAtHead();
    const row = await deps.readDb
      .selectFrom('projection_checkpoints')
      .select(['position', 'status'])
      .where('name', '=', PROJECTION)
      .executeTakeFirst();
    if (!row || row.status === 'failed') break;
    const checkpoint = BigInt(row.position);
    if (checkpoint >= target) return;
    const between = await definitionEventsBetween(deps, checkpoint, target);
    if (between === 'none') return;
    if (between === 'some') break;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_PAUSE_MS));
  }
  await capAtHead();
  await waitForProjections(deps.readDb, [PROJECTION], target);
}

/** Whether a definition event lies in (after, upTo]; 'unsettled' while the log cannot show it all yet. */
async function definitionEventsBetween(
  deps: Pick<CommandDeps, 'eventStore'>,
  after: bigint,
  upTo: bigint,
): Promise<'none' | 'some' | 'unsettled'> {
  const isDefinition = (type: string) => type.startsWith('CustomFieldDefinition');
  if (deps.eventStore.eventTypesBetween) {
    const types = await deps.eventStore.eventTypesBetween(after, upTo);
    if (types === undefined) return 'unsettled';
    return types.some(isDefinition) ? 'some' : 'none';
  }
  // readAll hands out an event only once every transaction below it has finished: when the
  // last one read is at or past upTo, nothing between can still appear.
  const between = await deps.eventStore.readAll(after, WINDOW);
  if (between.some((e) => e.position <= upTo && isDefinition(e.type))) return 'some';
  const last = between.at(-1);
  return last !== undefined && last.position >= upTo ? 'none' : 'unsettled';
}

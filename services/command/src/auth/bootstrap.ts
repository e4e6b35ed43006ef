import { WrongExpectedVersionError } from '@bahi/event-store';
import { appendToLog } from '@bahi/server-kit';
import type { CommandDeps } from '../deps.ts';
import { createUser } from '../handlers/users.ts';
import { userHoldingEmail } from './users.ts';

const BOOTSTRAP_STREAM = 'system-bootstrap';

/**
 * On a store that never had one, the first Admin comes from the configuration. Once done
 * (the system-bootstrap stream exists) it never happens again, even if that Admin is later
 * deleted. Several processes starting together create one Admin: the email reservation
 * lets one user hold the address, and the bootstrap marker is appended once.
 */
export async function bootstrapFirstAdmin(
  deps: CommandDeps,
  admin: { email: string; password: string },
): Promise<{ created: boolean }> {
  if ((await deps.eventStore.readStream(BOOTSTRAP_STREAM, { maxCount: 1 })).length > 0)
    return { created: false };
  const meta = { userId: null, correlationId: 'bootstrap', causationId: null };
  const email = admin.email.trim().toLowerCase();
  let holder = await userHoldingEmail(deps.eventStore, email);
  let created = false;
  if (!holder) {
    try {
      await createUser(deps, meta, {
        name: 'Administrator',
        email,
        phone: null,
        role: 'Admin',
        is_active: true,
        password: admin.password,
      });
      created = true;
    } catch (error) {
      // Another process won the race: it reserved the email first and may not have written the
      // user yet (copies starting together on an empty store). Wait a little for its user.
      for (let waited = 0; !holder && waited < 10_000; waited += 100) {
        holder = await userHoldingEmail(deps.eventStore, email);
        if (!holder) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!holder) throw error;
    }
  }
  holder ??= await userHoldingEmail(deps.eventStore, email);
  try {
    await appendToLog(
      deps.eventStore,
      BOOTSTRAP_STREAM,
      [{ type: 'AdminBootstrapped', data: { user_id: holder!.id, email }, metadata: meta }],
      'no_stream',
    );
  } catch (error) {
    if (!(error instanceof WrongExpectedVersionError)) throw error;
  }
  return { created };
}

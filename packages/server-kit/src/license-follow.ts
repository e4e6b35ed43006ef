import type { EventStore } from '@bahi/event-store';
import type { LicenseService } from './license.ts';

/** The stream Retry License Check appends `LicenseChecked` to (services/command, auth routes). */
export const LICENSE_STREAM = 'system-license';

/**
 * Keeps this process's license in step with every other process's: a Retry License Check
 * answered by one copy appends `LicenseChecked` (when the outcome changed), and every process
 * (each command and query copy) that sees a newer one in the log reloads its license from its
 * own configured source, the same mounted file. Polls the one small stream (an indexed read)
 * every `everyMs`, rather than following all of $all for one rare event.
 */
export async function followLicense(
  eventStore: EventStore,
  license: LicenseService,
  options: { everyMs?: number; onError?: (error: unknown) => void } = {},
): Promise<{ stop(): void; poll(): Promise<void> }> {
  let seen = (await eventStore.readStream(LICENSE_STREAM)).at(-1)?.streamVersion ?? -1n;
  let running: Promise<void> | undefined;
  const poll = async () => {
    const newer = await eventStore.readStream(LICENSE_STREAM, { fromVersion: seen + 1n });
    const last = newer.at(-1);
    if (!last) return;
    seen = last.streamVersion;
    await license.reload();
  };
  const timer = setInterval(() => {
    if (running) return;
    running = poll()
      .catch((error) => options.onError?.(error))
      .finally(() => {
        running = undefined;
      });
  }, options.everyMs ?? 1000);
  timer.unref();
  return { stop: () => clearInterval(timer), poll };
}

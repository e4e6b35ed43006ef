/**
 * Failpoints: faults a test asks a real process for through its environment, to put a crash
 * exactly where it hurts. Unset (always, outside tests), each costs one comparison.
 *
 * BAHI_FAILPOINT=hold-after-append:N - a keyed write's first attempt stops right after its
 * append, before its answer is kept or sent; when N such requests are waiting, the process kills
 * itself (SIGKILL: no shutdown code runs). Every one of those N requests has appended and none
 * has answered: the window in which a retry could record a write twice.
 */
const spec = /^hold-after-append:(\d+)$/.exec(process.env.BAHI_FAILPOINT ?? '');
const holdAfterAppend = spec ? Number(spec[1]) : 0;
let held = 0;

export async function afterKeyedAppend(appended: readonly unknown[]): Promise<void> {
  if (holdAfterAppend === 0 || appended.length === 0) return;
  held += 1;
  if (held >= holdAfterAppend) process.kill(process.pid, 'SIGKILL');
  await new Promise<never>(() => {});
}

import { preloadScreenParts } from '@bahi/ui';
import { loadRoutesModule, type RemoteName } from './remote-outlet.tsx';

/**
 * The remotes fetched ahead, in this order (after the screens' shared table and tabs): the entry
 * and routes module of each, then its likely screens (its routes module's `preload`). Masters'
 * screens are in its routes module.
 */
export const PREFETCH_ORDER: readonly RemoteName[] = ['transactions', 'reports', 'masters'];

/**
 * The switch: `localStorage['bahi.prefetch'] = 'off'` turns the prefetch off for this browser
 * (the bundle budget tests measure what a screen needs with it off; docs/frontend.md).
 */
export const PREFETCH_SWITCH = 'bahi.prefetch';
/** Marked when the prefetch has ended (the first-visits benchmark reads it). */
export const PREFETCH_DONE_MARK = 'bahi:prefetch-done';

let started = false;

/** Off when the person asked the browser to save data, or by the switch. */
export function prefetchOff(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData) return true;
  try {
    return localStorage.getItem(PREFETCH_SWITCH) === 'off';
  } catch {
    return false;
  }
}

/** At most 3 s of waiting for the main thread to be idle, on a busy page. */
function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof window.requestIdleCallback === 'function')
      window.requestIdleCallback(() => resolve(), { timeout: 3000 });
    else setTimeout(resolve, 200);
  });
}

/**
 * No resource (script, stylesheet, API answer) finished for `ms`: the first screen has its code
 * and data. Long-lived requests (the live stream) never finish and do not count.
 */
function networkQuiet(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      observer?.disconnect();
      resolve();
    };
    let timer = setTimeout(done, ms);
    const observer =
      typeof PerformanceObserver === 'function'
        ? new PerformanceObserver(() => {
            clearTimeout(timer);
            timer = setTimeout(done, ms);
          })
        : undefined;
    observer?.observe({ type: 'resource' });
  });
}

/** Before the first remote: the page loaded, the first screen's requests answered, idle. */
async function firstScreenSettled(): Promise<void> {
  if (document.readyState !== 'complete')
    await new Promise((resolve) => window.addEventListener('load', resolve, { once: true }));
  await networkQuiet(QUIET_MS);
  await idle();
}

/** How long the network stays quiet before the prefetch starts (as Playwright's networkidle). */
const QUIET_MS = 500;

/**
 * Fetches the remotes' code once per page, signed in, once the first screen has settled: one
 * remote at a time, each after an idle moment, so sign-in and the first screen never wait
 * behind it. A
 * remote that fails here is left as it was: its first visit loads it (or shows Retry).
 */
export function prefetchRemotes(
  load: typeof loadRoutesModule = loadRoutesModule,
  parts: () => Promise<void> = preloadScreenParts,
): void {
  if (started || prefetchOff()) return;
  started = true;
  void (async () => {
    await firstScreenSettled();
    try {
      await parts();
    } catch (error) {
      console.warn('prefetch of the tables and tabs failed; they load when shown', error);
    }
    for (const remote of PREFETCH_ORDER) {
      await idle();
      try {
        const mod = await load(remote);
        await mod.preload?.();
      } catch (error) {
        console.warn(`prefetch of the ${remote} screens failed; they load when opened`, error);
      }
    }
    performance.mark(PREFETCH_DONE_MARK);
  })();
}

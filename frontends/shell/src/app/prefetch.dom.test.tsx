import type { RemoteRoutesModule } from '@bahi/ui';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.resetModules();
  vi.unstubAllGlobals();
});

/** A fresh prefetch module (it runs once per page) and a loader that records what it was asked. */
async function fresh() {
  const { prefetchRemotes, PREFETCH_DONE_MARK } = await import('./prefetch.ts');
  const events: string[] = [];
  const load = async (remote: string): Promise<RemoteRoutesModule> => {
    events.push(`load ${remote}`);
    if (remote === 'reports') throw new Error('reports are down');
    return {
      default: () => <></>,
      preload: async () => {
        events.push(`preload ${remote}`);
      },
    };
  };
  const parts = async () => {
    events.push('parts');
  };
  const done = () => performance.getEntriesByName(PREFETCH_DONE_MARK).length > 0;
  return { prefetchRemotes, load, parts, events, done };
}

describe('the idle prefetch of the remotes', () => {
  it('loads one remote at a time, then its screens; a failed one is skipped; once per page', async () => {
    localStorage.removeItem('bahi.prefetch');
    performance.clearMarks();
    const { prefetchRemotes, load, parts, events, done } = await fresh();
    prefetchRemotes(load as never, parts);
    prefetchRemotes(load as never, parts);
    await vi.waitFor(() => expect(done()).toBe(true), { timeout: 20_000, interval: 100 });
    expect(events).toEqual([
      'parts',
      'load transactions',
      'preload transactions',
      'load reports',
      'load masters',
      'preload masters',
    ]);
  });

  it('does nothing with the switch off, or when the browser saves data', async () => {
    const { prefetchRemotes, load, parts, events } = await fresh();
    localStorage.setItem('bahi.prefetch', 'off');
    prefetchRemotes(load as never, parts);
    localStorage.removeItem('bahi.prefetch');
    vi.stubGlobal('navigator', { ...navigator, connection: { saveData: true } });
    prefetchRemotes(load as never, parts);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events).toEqual([]);
  });
});

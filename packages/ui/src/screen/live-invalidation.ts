import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * What the live stream's data-changed events concern. Every query key starts with its area
 * ('masters', 'transactions', 'reports', 'settings', 'parties', 'dashboard') and, for masters, the
 * kind; an event names the stream it was written to ('funder-<id>' -> 'funder').
 */
const MONEY: QueryKey[] = [['masters'], ['parties'], ['transactions'], ['reports'], ['dashboard']];
const PARTY: QueryKey[] = [['masters'], ['parties'], ['transactions'], ['reports']];

export function keysConcerned(stream: string): QueryKey[] | 'all' {
  switch (stream) {
    case 'city':
    case 'product':
      return 'all'; // names and currencies show everywhere
    case 'funder':
    case 'agent':
    case 'collector':
    case 'godown':
      return [...PARTY, ['settings', 'activity-log']];
    case 'user':
    case 'user-email':
      return [
        ['settings', 'users'],
        ['settings', 'activity-log'],
      ];
    case 'custom':
    case 'custom-field':
      return [['settings', 'custom-fields'], ['transactions'], ['settings', 'activity-log']];
    case 'books':
      // The period close: which rows may be edited, the activity log's entry, and whether a
      // report as of a date reads a closed period (the Balances and Stock screens' note).
      return [['books'], ['reports', 'closed'], ['settings', 'activity-log']];
    case 'report':
      // 'report-sends': a WhatsApp send recorded (a Send now that finished later, too).
      return [['settings', 'whatsapp-outbox']];
    case 'notification':
    case 'notification-reads':
    case 'license':
    case 'projection':
      return [];
    default:
      // purchases, sales, inventory, payments, salaries, transfers, expenses, incomes...
      return [...MONEY, ['settings', 'activity-log']];
  }
}

/** Events arriving together (a bulk sale, a busy office) refresh each list once. */
export const COALESCE_MS = 200;

export function startLiveInvalidation(
  client: QueryClient,
  target: EventTarget | undefined = globalThis.window,
) {
  if (!target) return () => {};
  let pending: Set<string> | undefined;
  const flush = () => {
    const streams = pending ?? new Set<string>();
    pending = undefined;
    const keys = new Map<string, QueryKey>();
    for (const stream of streams) {
      const concerned = keysConcerned(stream);
      if (concerned === 'all') {
        void client.invalidateQueries();
        return;
      }
      for (const key of concerned) keys.set(JSON.stringify(key), key);
    }
    for (const key of keys.values()) void client.invalidateQueries({ queryKey: key });
  };
  const listener = (e: Event) => {
    const stream = (e as CustomEvent<{ stream?: unknown }>).detail?.stream;
    if (typeof stream !== 'string') return;
    if (!pending) {
      pending = new Set();
      setTimeout(flush, COALESCE_MS);
    }
    pending.add(stream);
  };
  // The stream was down and cannot prove it missed nothing (`ready` with `missed: true`, or a
  // reconnection): every query refetches, those on screen at once.
  const resync = () => void client.invalidateQueries();
  target.addEventListener('bahi:data-changed', listener);
  target.addEventListener('bahi:resync', resync);
  return () => {
    target.removeEventListener('bahi:data-changed', listener);
    target.removeEventListener('bahi:resync', resync);
  };
}

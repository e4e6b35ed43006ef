import { useSession } from '@bahi/ui';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef } from 'react';

type Listener = (data: unknown) => void;
type Subscribe = (event: string, listener: Listener) => () => void;

const LiveEventsContext = createContext<Subscribe>(() => () => {});

/** The first wait before reopening a closed stream; it doubles after each failed try. */
export const RECONNECT_FIRST_MS = 1_000;
/** The longest wait between two tries. */
export const RECONNECT_MAX_MS = 10_000;

/**
 * The wait before the try after `failures` failed ones: 1 s doubling to 10 s, with jitter (half
 * to all of it) so that a hundred desks do not all knock on a restarted server at once.
 */
export function reconnectDelay(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** failures);
  return Math.round(ceiling * (0.5 + random() / 2));
}

/**
 * The live stream GET /api/events while signed in (the HttpOnly session cookie authenticates
 * it). license-updated re-validates session and license; other events go to subscribers, and
 * data-changed and notification are also window events ('bahi:data-changed',
 * 'bahi:notification') for the remotes. Bad data is only logged.
 *
 * It stays open for the whole session (issue #25): a stream the browser gave up on (an HTTP
 * error such as a gateway's 502, a refused connection) is closed and opened again after a
 * backoff (reconnectDelay), reset by the next `ready`. When `ready` says `missed: true`, or a
 * reconnection cannot prove it missed nothing (a new stream carries no Last-Event-ID; the
 * browser's own retry carries one only if an event with an id came before), the window event
 * 'bahi:resync' tells every screen to refetch what it shows.
 */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const listeners = useRef(new Map<string, Set<Listener>>());
  const revalidate = useRef(session.revalidate);
  revalidate.current = session.revalidate;
  const signedIn = session.status === 'signed-in';
  const userId = session.user?.id;

  // biome-ignore lint/correctness/useExhaustiveDependencies: one stream per signed-in user
  useEffect(() => {
    if (!signedIn || typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;
    /** A `ready` came before on some stream: the next one is a reconnection. */
    let wasReady = false;

    const open = () => {
      const current = new EventSource('/api/events');
      source = current;
      /** An event with an id came on this stream: the browser's retry resumes after it. */
      let sawId = false;
      const dispatch = (name: string) => (e: MessageEvent) => {
        if (e.lastEventId) sawId = true;
        let data: unknown;
        try {
          data = JSON.parse(e.data);
        } catch (error) {
          console.error(`live event ${name}: bad data`, error);
          return;
        }
        if (name === 'ready') {
          failures = 0;
          const missed = (data as { missed?: unknown })?.missed === true;
          if (missed || (wasReady && !sawId)) window.dispatchEvent(new CustomEvent('bahi:resync'));
          wasReady = true;
        }
        if (name === 'license-updated') {
          if (typeof (data as { isValid?: unknown })?.isValid !== 'boolean') {
            console.error('live event license-updated: bad data', data);
            return;
          }
          void revalidate.current();
        }
        for (const l of listeners.current.get(name) ?? []) l(data);
        // Re-broadcast for the remotes, which have no access to this context: data-changed
        // refreshes lists; a notification (a 'Report ready' file link) reaches the report screens.
        if (name === 'data-changed')
          window.dispatchEvent(new CustomEvent('bahi:data-changed', { detail: data }));
        if (name === 'notification')
          window.dispatchEvent(new CustomEvent('bahi:notification', { detail: data }));
      };
      for (const name of ['ready', 'data-changed', 'license-updated', 'notification']) {
        current.addEventListener(name, dispatch(name) as EventListener);
      }
      current.onerror = () => {
        // CONNECTING: the browser retries by itself, with the Last-Event-ID it holds. CLOSED: it
        // gave up (an HTTP error); this stream is done and a new one follows after a wait.
        if (current.readyState !== EventSource.CLOSED || stopped || source !== current) return;
        current.close();
        retry = setTimeout(open, reconnectDelay(failures++));
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [signedIn, userId]);

  const subscribe = useMemo<Subscribe>(
    () => (event, listener) => {
      const set = listeners.current.get(event) ?? new Set();
      set.add(listener);
      listeners.current.set(event, set);
      return () => set.delete(listener);
    },
    [],
  );
  return <LiveEventsContext.Provider value={subscribe}>{children}</LiveEventsContext.Provider>;
}

/** Calls `listener` for each live event of that name. */
export function useLiveEvent(event: string, listener: Listener): void {
  const subscribe = useContext(LiveEventsContext);
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => subscribe(event, (d) => ref.current(d)), [subscribe, event]);
}

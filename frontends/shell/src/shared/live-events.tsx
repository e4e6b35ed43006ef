import { useSession } from '@bahi/ui';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef } from 'react';

type Listener = (data: unknown) => void;
type Subscribe = (event: string, listener: Listener) => () => void;

const LiveEventsContext = createContext<Subscribe>(() => () => {});

/**
 * The live stream GET /api/events while signed in (the HttpOnly session cookie authenticates
 * it). license-updated re-validates session and license; other events go to subscribers, and
 * data-changed and notification are also window events ('bahi:data-changed',
 * 'bahi:notification') for the remotes. On a stream error the stream is closed (spec section
 * 4); bad data is only logged.
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
    const source = new EventSource('/api/events');
    const dispatch = (name: string) => (e: MessageEvent) => {
      let data: unknown;
      try {
        data = JSON.parse(e.data);
      } catch (error) {
        console.error(`live event ${name}: bad data`, error);
        return;
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
      source.addEventListener(name, dispatch(name) as EventListener);
    }
    source.onerror = () => source.close();
    return () => source.close();
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

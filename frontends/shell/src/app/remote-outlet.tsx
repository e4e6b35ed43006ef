import { ErrorAlert, type RemoteRoutesComponent, type RemoteRoutesModule } from '@bahi/ui';
import { Button, Spinner } from '@fluentui/react-components';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { useCallback, useEffect, useState } from 'react';

export type RemoteName = 'masters' | 'transactions' | 'reports';

const loaded = new Map<RemoteName, RemoteRoutesComponent>();
const registered = new Set<RemoteName>();
/** A remote's routes module, loading or loaded: the outlet and the prefetch share one load. */
const loading = new Map<RemoteName, Promise<RemoteRoutesModule>>();

/** Where a remote's manifest is: served by the standalone server and the gateway alike. */
export const remoteManifest = (remote: RemoteName) => `/remotes/${remote}/mf-manifest.json`;

/**
 * A remote's entry and routes module, fetched once. The screens are in `loaded` when it
 * resolves; a failure is forgotten, so Retry (or the next prefetch) fetches again.
 */
export function loadRoutesModule(remote: RemoteName): Promise<RemoteRoutesModule> {
  const pending = loading.get(remote);
  if (pending) return pending;
  const attempt = (async () => {
    // Registered on first use; after a failure registered again with force, which drops the
    // runtime's cached failed manifest and entry so Retry really fetches them again.
    registerRemotes([{ name: remote, entry: remoteManifest(remote) }], { force: registered.has(remote) });
    registered.add(remote);
    const mod = await loadRemote<RemoteRoutesModule>(`${remote}/routes`);
    if (!mod?.default) throw new Error(`The ${remote} screens did not load.`);
    loaded.set(remote, mod.default);
    return mod;
  })();
  loading.set(remote, attempt);
  attempt.catch(() => loading.delete(remote));
  return attempt;
}

const load = (remote: RemoteName): Promise<RemoteRoutesComponent> =>
  loadRoutesModule(remote).then((mod) => mod.default);

/**
 * A remote's screens under /{base}/*. A remote that fails to load (server down, deploy in
 * progress) shows an error panel with Retry instead of a blank page.
 */
export function RemoteOutlet(props: { remote: RemoteName; base: string; loader?: typeof load }) {
  // Keyed by remote: going from /masters/... to /reports/... React would otherwise keep this
  // component, and its state (the masters' routes, ready), for the other remote's route.
  return <RemoteScreens key={props.remote} {...props} />;
}

function RemoteScreens(props: { remote: RemoteName; base: string; loader?: typeof load }) {
  const loader = props.loader ?? load;
  const [state, setState] = useState<
    | { status: 'loading' }
    | { status: 'ready'; Routes: RemoteRoutesComponent }
    | { status: 'failed'; error: string }
  >(() => {
    const Routes = loaded.get(props.remote);
    return Routes ? { status: 'ready', Routes } : { status: 'loading' };
  });
  const attempt = useCallback(async () => {
    setState({ status: 'loading' });
    try {
      const Routes = await loader(props.remote);
      loaded.set(props.remote, Routes);
      setState({ status: 'ready', Routes });
    } catch (error) {
      console.error(`remote ${props.remote} failed to load`, error);
      setState({ status: 'failed', error: error instanceof Error ? error.message : String(error) });
    }
  }, [loader, props.remote]);
  useEffect(() => {
    if (!loaded.has(props.remote)) void attempt();
  }, [attempt, props.remote]);

  if (state.status === 'loading') return <Spinner label="Loading…" />;
  if (state.status === 'failed') {
    return (
      <ErrorAlert
        title="This part of Bahi could not be loaded"
        text={`The ${props.remote} screens are unavailable right now. Check the connection and try again.`}
        action={<Button onClick={() => void attempt()}>Retry</Button>}
      />
    );
  }
  return <state.Routes base={props.base} />;
}

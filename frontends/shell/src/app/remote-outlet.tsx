import type { RemoteRoutesComponent } from '@bahi/ui';
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
} from '@fluentui/react-components';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { useCallback, useEffect, useState } from 'react';

export type RemoteName = 'masters' | 'transactions' | 'reports';

const loaded = new Map<RemoteName, RemoteRoutesComponent>();

async function load(remote: RemoteName): Promise<RemoteRoutesComponent> {
  const mod = await loadRemote<{ default: RemoteRoutesComponent }>(`${remote}/routes`);
  if (!mod?.default) throw new Error(`The ${remote} screens did not load.`);
  return mod.default;
}

/**
 * A remote's screens under /{base}/*. A remote that fails to load (server down, deploy in
 * progress) shows an error panel with Retry instead of a blank page.
 */
export function RemoteOutlet(props: { remote: RemoteName; base: string; loader?: typeof load }) {
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
      <MessageBar intent="error" layout="multiline" role="alert">
        <MessageBarBody>
          <MessageBarTitle>This part of Bahi could not be loaded</MessageBarTitle>
          The {props.remote} screens are unavailable right now. Check the connection and try again.
        </MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void attempt()}>Retry</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  return <state.Routes base={props.base} />;
}

/** What a remote's ./routes module exports by default: its routes under one base path. */
export type RemoteRoutesComponent = (props: { base: string }) => React.JSX.Element;

/**
 * A remote's ./routes module: its routes, and `preload` to fetch the code of its likely
 * screens ahead of their first visit (the shell calls it when the browser is idle).
 */
export interface RemoteRoutesModule {
  default: RemoteRoutesComponent;
  preload?: () => Promise<void>;
}

/** Preloads one after another: a remote's screens never compete with each other on the wire. */
export async function preloadInTurn(screens: ReadonlyArray<{ preload(): Promise<void> }>): Promise<void> {
  for (const screen of screens) await screen.preload();
}

import { type FunctionComponent, type LazyExoticComponent, lazy } from 'react';

type PropsOf<C> = C extends (props: infer P) => unknown ? P : never;

/** A lazy component whose code can be fetched ahead of its first render. */
export type Preloadable<P> = LazyExoticComponent<FunctionComponent<P>> & {
  /** Starts the import React.lazy will use (once); resolves when the code is in. */
  preload(): Promise<void>;
};

/**
 * A named export loaded on first render: dialogs load with their first opening, so a list's
 * first screen does not carry the forms (react-hook-form, zod and the request schemas).
 * `preload()` fetches it ahead (the shell's idle prefetch): the import is made once and shared
 * with React.lazy; a failed one is forgotten, so the next preload or render tries again.
 */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): Preloadable<PropsOf<M[K]>> {
  type Component = FunctionComponent<PropsOf<M[K]>>;
  let pending: Promise<{ default: Component }> | undefined;
  const imported = () => {
    pending ??= load().then(
      (m) => ({ default: m[name] as unknown as Component }),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  return Object.assign(lazy(imported), { preload: () => imported().then(() => undefined) });
}

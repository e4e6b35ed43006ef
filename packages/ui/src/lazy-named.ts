import { type FunctionComponent, type LazyExoticComponent, lazy } from 'react';

type PropsOf<C> = C extends (props: infer P) => unknown ? P : never;

/**
 * A named export loaded on first render: dialogs load with their first opening, so a list's
 * first screen does not carry the forms (react-hook-form, zod and the request schemas).
 */
export function lazyNamed<M, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<FunctionComponent<PropsOf<M[K]>>> {
  return lazy(() =>
    load().then((m) => ({ default: m[name] as unknown as FunctionComponent<PropsOf<M[K]>> })),
  );
}

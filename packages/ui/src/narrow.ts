import { useSyncExternalStore } from 'react';

/** Below this width a table that carries money shows each row as a card (docs/frontend.md, Phones). */
export const NARROW_QUERY = '(max-width: 599.98px)';

const media = () => (typeof matchMedia === 'function' ? matchMedia(NARROW_QUERY) : undefined);

function subscribe(change: () => void) {
  const m = media();
  m?.addEventListener('change', change);
  return () => m?.removeEventListener('change', change);
}

/** Whether the screen is a phone's (below 600 px wide); follows a resize or a rotation. */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => media()?.matches ?? false,
    () => false,
  );
}

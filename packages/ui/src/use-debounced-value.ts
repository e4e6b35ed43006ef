import { useEffect, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 500;

/** The value once it has stopped changing for `ms` (search boxes: 500 ms). */
export function useDebouncedValue<T>(value: T, ms: number = SEARCH_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

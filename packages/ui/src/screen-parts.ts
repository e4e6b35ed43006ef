/**
 * Fluent's table and tab list, which the screens' tables and city tabs load on their first
 * rendering (data-table.tsx, city-tabs.tsx): fetched ahead by the shell's idle prefetch, so a
 * first visit does not wait for them either. The same imports as theirs, so one fetch each.
 */
export function preloadScreenParts(): Promise<void> {
  return Promise.all([import('./data-table-impl.tsx'), import('./city-tabs-impl.tsx')]).then(() => undefined);
}

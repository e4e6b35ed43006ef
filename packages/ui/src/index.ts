// The package's public surface: the remotes and the shell import from '@bahi/ui' only, so the
// module-federation singleton is one module.
export * from './api-client.ts';
export * from './city-tabs.tsx';
export * from './data-table.tsx';
export * from './dialogs.tsx';
export * from './error-alert.tsx';
export * from './files.ts';
export * from './format.ts';
export { handleFormKeyDown } from './keyboard.ts';
export * from './lazy-named.ts';
export * from './list-state.ts';
export * from './narrow.ts';
export * from './page.tsx';
export * from './panel.tsx';
export * from './remote-routes.ts';
export * from './role-gate.tsx';
export * from './router-link.tsx';
export * from './routing.ts';
export * from './row-card.tsx';
export * from './screen-parts.ts';
export * from './session.ts';
export * from './snackbar.tsx';
export * from './use-debounced-value.ts';

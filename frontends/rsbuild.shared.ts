import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { defineConfig, type RsbuildConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';

export const REMOTES = ['masters', 'transactions', 'reports'] as const;
export type RemoteName = (typeof REMOTES)[number];

/**
 * Shared as singletons: React, Fluent's context and styling packages (one theme and one style
 * renderer; sharing all of Fluent would ship it whole), and @bahi/ui (one API client, so one
 * session token and one last-written position, and one router: remotes take react-router's
 * components and hooks from @bahi/ui, because react-router shared on its own ships whole).
 */
const shared = {
  react: { singleton: true, requiredVersion: '^19.3.0' },
  'react/jsx-runtime': { singleton: true, requiredVersion: '^19.3.0' },
  'react-dom': { singleton: true, requiredVersion: '^19.3.0' },
  '@fluentui/react-shared-contexts': { singleton: true, requiredVersion: '^9.26.0' },
  '@griffel/react': { singleton: true, requiredVersion: '^1.5.0' },
  '@bahi/ui': { singleton: true, requiredVersion: '^0.1.0' },
  // The screen foundation (TanStack Query's one cache, list controls) and the forms on it
  // (react-hook-form, fields, the party picker): singletons of their own, each loaded with the
  // first screen or dialog that imports it, never with the shell's first page. zod is not shared:
  // shared, it ships whole (all its locales, ~87 kB gzip); bundled with @bahi/contracts where a
  // dialog uses it, it is tree-shaken.
  '@bahi/ui/screen': { singleton: true, requiredVersion: '^0.1.0', version: '0.1.0' },
  '@bahi/ui/form': { singleton: true, requiredVersion: '^0.1.0', version: '0.1.0' },
};

/**
 * One copy of each shared module: the first registered (the shell's, which registers first) is
 * the one every remote uses. Under the runtime's default, 'version-first', a container registered
 * later replaces a same-version copy that is registered but not loaded yet whenever its name
 * sorts after the registrant's (@module-federation/runtime-core, initializeSharing's register):
 * with the remotes fetched ahead by the idle prefetch, a screen could hold one remote's copy of
 * `@bahi/ui/screen` while a dialog loaded later took another's, two TanStack Query caches or
 * two form contexts. 'loaded-first' never replaces a registered copy (docs/decisions.md, "One
 * copy of each shared module").
 */
const SHARE_STRATEGY = 'loaded-first' as const;

const common: RsbuildConfig = {
  plugins: [pluginReact()],
  source: { entry: { index: './src/index.ts' } },
  performance: { chunkSplit: { strategy: 'split-by-experience' } },
  output: { sourceMap: { js: false, css: false } },
};

/**
 * The host. Its remotes (name@/remotes/<name>/mf-manifest.json) are registered at run time,
 * when a screen of theirs is first opened (frontends/shell/src/app/remote-outlet.tsx): listed
 * here, the runtime would fetch every remote's manifest and entry at start, and one remote
 * being down would take the whole app with it.
 */
export function hostConfig(): RsbuildConfig {
  return defineConfig({
    ...common,
    html: {
      title: 'Bahi',
      meta: { viewport: 'width=device-width, initial-scale=1', 'color-scheme': 'dark light' },
      // No favicon file yet; an empty data URL keeps browsers from asking for /favicon.ico.
      tags: [{ tag: 'link', attrs: { rel: 'icon', href: 'data:,' } }],
    },
    plugins: [
      ...(common.plugins ?? []),
      pluginModuleFederation({
        name: 'shell',
        shared,
        shareStrategy: SHARE_STRATEGY,
        dts: false,
      }),
    ],
  });
}

/** A remote: exposes ./routes; 'auto' asset prefix so its chunks load from /remotes/<name>/. */
export function remoteConfig(name: RemoteName): RsbuildConfig {
  return defineConfig({
    ...common,
    output: { ...common.output, assetPrefix: 'auto' },
    // Only rsbuild's dev server reads this (production serves shell and remotes from one
    // origin); set, it also stops the federation plugin's warning on every build.
    server: { cors: { origin: 'http://localhost:3000' } },
    plugins: [
      ...(common.plugins ?? []),
      pluginModuleFederation({
        name,
        exposes: { './routes': './src/routes.tsx' },
        shared,
        shareStrategy: SHARE_STRATEGY,
        dts: false,
      }),
    ],
  });
}

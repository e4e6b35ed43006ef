/**
 * Compiles each service to one JavaScript file that `node` runs directly (issue #26): the
 * project's own code (the @bahi/* workspaces, TypeScript) is bundled by esbuild; npm packages
 * stay outside, loaded from node_modules as they are. Production starts the services with
 * `node services/<name>/dist/main.mjs`, so SIGTERM reaches the service itself (no npm, no tsx
 * in between) and nothing is compiled at start-up.
 *
 *   npm run build:services     (writes services/<name>/dist/main.mjs and its source map)
 *
 * The operator's commands that work on a deployment's store (backup, restore, projections) are
 * compiled the same way into scripts/dist/<name>.mjs, so the image runs them too (README,
 * Backups: `docker-compose run --rm projector node scripts/dist/backup.mjs`).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
export const SERVICES = ['command', 'query', 'projector', 'reports-worker', 'standalone'] as const;
export const TOOLS = ['backup', 'restore', 'projections'] as const;

/** Bare imports of npm packages stay imports; the project's own workspaces are bundled. */
const npmPackagesOutside: Plugin = {
  name: 'npm-packages-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@bahi/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Builds the services named (all by default); a tool's name (TOOLS) builds that tool. */
export async function buildServices(names: readonly string[] = SERVICES): Promise<void> {
  for (const name of names) {
    const tool = (TOOLS as readonly string[]).includes(name);
    const outdir = tool ? resolve(ROOT, 'scripts', 'dist') : resolve(ROOT, 'services', name, 'dist');
    const entry = tool
      ? resolve(ROOT, 'scripts', `${name}.ts`)
      : resolve(ROOT, 'services', name, 'src/main.ts');
    const result = await build({
      write: false,
      entryPoints: { [tool ? name : 'main']: entry },
      outdir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      sourcemap: 'linked',
      // Names stay as written: error messages and stack traces read as the sources do.
      keepNames: true,
      // A CommonJS package imported from the bundle may call require(): give it one.
      banner: {
        js: "import { createRequire as __bahiRequire } from 'node:module';\nconst require = __bahiRequire(import.meta.url);",
      },
      plugins: [npmPackagesOutside],
      logLevel: 'warning',
    });
    // Each file replaced whole (written aside, then renamed): a service starting while another
    // process builds (tests start several at once) loads the old file or the new, never half.
    for (const file of result.outputFiles) {
      await mkdir(dirname(file.path), { recursive: true });
      const aside = `${file.path}.${process.pid}.tmp`;
      await writeFile(aside, file.contents);
      await rename(aside, file.path);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const asked = process.argv.slice(2);
  const names = asked.length ? asked : [...SERVICES, ...TOOLS];
  await buildServices(names);
  console.log(`built ${names.join(', ')} (services/<name>/dist/main.mjs, scripts/dist/<tool>.mjs)`);
}

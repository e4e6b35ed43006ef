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
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
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

/**
 * What the production image carries besides the bundles: the npm packages that cannot be bundled
 * (a native addon), with every package they load. PGlite is not among them: the image runs the
 * distributed services, on Postgres; the standalone app (PGlite) runs from a clone.
 */
export const IMAGE_EXTERNALS = ['@node-rs/argon2'] as const;
/** Never in the image: imported only on the standalone's path (openEmbeddedStorage). */
const IMAGE_LEFT_OUT = ['@electric-sql/pglite'] as const;
/** Bundled code that reads a file of its package at run time: those files are copied beside. */
const IMAGE_DATA: ReadonlyArray<{ pkg: string; files: string }> = [
  // pdfkit's standard-font metrics, read (fs.readFileSync(__dirname + '/data/...')) when a
  // document opens in Helvetica, as every new PDFDocument does before our fonts are set.
  { pkg: 'pdfkit', files: 'js/data' },
];

/**
 * The production image's /app (issue #26): every service and operator command bundled with the
 * npm packages it loads (one build, shared code in lib/), the native packages IMAGE_EXTERNALS
 * names with what they load, the report fonts (only the files the PDFs read, with each package's
 * package.json and licence) and nothing else: no `npm ci` in the final stage.
 *
 *   npx tsx scripts/build-services.ts --image <dir>   (the Dockerfile's build stage)
 */
export async function buildImageApp(out: string): Promise<void> {
  const { cp, readFile, rm, stat } = await import('node:fs/promises');
  const { createRequire } = await import('node:module');
  const { relative } = await import('node:path');
  await rm(out, { recursive: true, force: true });
  const entryPoints: Record<string, string> = {};
  for (const name of SERVICES)
    if (name !== 'standalone')
      entryPoints[`services/${name}/dist/main`] = resolve(ROOT, 'services', name, 'src/main.ts');
  for (const name of TOOLS) entryPoints[`scripts/dist/${name}`] = resolve(ROOT, 'scripts', `${name}.ts`);
  const outside = [...IMAGE_EXTERNALS, ...IMAGE_LEFT_OUT];
  const result = await build({
    entryPoints,
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'lib/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Stack traces point at the sources' files and lines; the sources themselves stay out.
    sourcemap: 'linked',
    sourcesContent: false,
    // Minified (half the size); functions and classes keep their names, and the source maps
    // turn a stack trace's positions back into the sources' files and lines.
    minify: true,
    keepNames: true,
    // CommonJS packages bundled into ESM: give them require, __filename and __dirname (pdfkit
    // reads its data through __dirname: lib/data, copied below).
    banner: {
      js: [
        "import { createRequire as __bahiRequire } from 'node:module';",
        'const require = __bahiRequire(import.meta.url);',
        'const __filename = import.meta.filename;',
        'const __dirname = import.meta.dirname;',
      ].join('\n'),
    },
    external: [...outside, ...outside.map((name) => `${name}/*`), 'pg-native'],
    metafile: true,
    logLevel: 'warning',
  });
  // Which chunk holds pdfkit: its data goes beside that file (its __dirname).
  const require = createRequire(resolve(ROOT, 'services', 'reports-worker', 'package.json'));
  const packageRoot = (name: string) => dirname(require.resolve(`${name}/package.json`));
  for (const { pkg, files } of IMAGE_DATA) {
    const root = packageRoot(pkg);
    const chunks = Object.entries(result.metafile.outputs)
      .filter(([, o]) => Object.keys(o.inputs).some((input) => resolve(ROOT, input).startsWith(`${root}/`)))
      .map(([file]) => dirname(resolve(ROOT, file)));
    for (const dir of new Set(chunks))
      await cp(resolve(root, files), resolve(dir, files.split('/').pop()!), { recursive: true });
  }
  // The externals and every package they load, as installed (node_modules/<name>).
  const seen = new Set<string>();
  const copyPackage = async (name: string, from: NodeJS.Require) => {
    let root: string;
    try {
      root = dirname(from.resolve(`${name}/package.json`));
    } catch {
      return; // an optional dependency not installed on this platform
    }
    if (seen.has(root)) return;
    seen.add(root);
    await cp(root, resolve(out, relative(ROOT, root)), { recursive: true, dereference: true });
    const manifest = JSON.parse(await readFile(resolve(root, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const own = createRequire(resolve(root, 'package.json'));
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }))
      await copyPackage(dep, own);
  };
  for (const name of IMAGE_EXTERNALS) await copyPackage(name, require);
  // The report fonts: the files fontFiles() names, each package's manifest, entry and licences
  // (fonts.ts finds a package through require.resolve, as in a clone).
  const { fontFiles } = await import('../services/reports-worker/src/render/fonts.ts');
  const fontPackages = new Set<string>();
  for (const file of fontFiles()) {
    await cp(file, resolve(out, relative(ROOT, file)));
    let dir = dirname(file);
    while (!existsSync(resolve(dir, 'package.json'))) dir = dirname(dir);
    fontPackages.add(dir);
  }
  for (const dir of fontPackages) {
    const manifest = JSON.parse(await readFile(resolve(dir, 'package.json'), 'utf8')) as { name: string };
    const keep = ['package.json', ...(await readdir(dir)).filter((f) => /^(licen[cs]e|ofl)/i.test(f))];
    try {
      keep.push(relative(dir, createRequire(resolve(dir, 'package.json')).resolve(manifest.name)));
    } catch {
      // no entry file: package.json alone is what fonts.ts resolves
    }
    for (const file of keep)
      if ((await stat(resolve(dir, file))).isFile())
        await cp(resolve(dir, file), resolve(out, relative(ROOT, dir), file));
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === '--image') {
  const out = resolve(process.argv[3] ?? 'image-app');
  await buildImageApp(out);
  console.log(`built the image's app in ${out}`);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const asked = process.argv.slice(2);
  const names = asked.length ? asked : [...SERVICES, ...TOOLS];
  await buildServices(names);
  console.log(`built ${names.join(', ')} (services/<name>/dist/main.mjs, scripts/dist/<tool>.mjs)`);
}

/**
 * The frontends' import direction, as a lint that fails (docs/frontend.md):
 *   app -> features -> shared: inside a frontend's src, `app/` and the root files (routes,
 *   bootstrap) may import anything; a feature (`features/<name>/`) imports only itself, `shared/`
 *   and `testing/`, never another feature or the app; `shared/` never imports a feature or the app.
 *   Remotes never import another frontend; packages/ui never imports a frontend.
 *   A remote takes routing from '@bahi/ui' (react-router is the shell's, not shared); every
 *   frontend takes server state and forms from '@bahi/ui/screen' (one query cache, one form library).
 *
 * The server side's (issue #19), checkServerImports:
 *   a package (packages/*) never imports a service; a service never imports another service
 *   (shared code goes into a package) - but the standalone, which runs them all in one process,
 *   and tests, which may drive another service as a fixture; the workspaces' dependencies
 *   (package.json) have no cycle.
 *
 *   tsx scripts/check-imports.ts [root]      exits 1 and lists each import that breaks a rule
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Problem {
  file: string;
  line: number;
  spec: string;
  rule: string;
}

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
const FRONTEND_PACKAGE = /^@bahi\/frontend-/;
/**
 * Libraries a frontend takes through @bahi/ui/screen and @bahi/ui/form, so there is one instance of each (a second
 * copy of react-hook-form or TanStack Query would not see the first one's context).
 */
const ONLY_VIA_SCREEN = ['@tanstack/react-query', 'react-hook-form', '@hookform/resolvers'];

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx)$/.test(name)) yield path;
  }
}

/** Where a file sits in its frontend: app, a feature, shared, testing, or outside src. */
function layer(
  file: string,
  srcRoot: string,
): { kind: 'app' | 'feature' | 'shared' | 'testing'; feature?: string } {
  const parts = relative(srcRoot, file).split(sep);
  if (parts[0] === 'features' && parts.length > 2) return { kind: 'feature', feature: parts[1] };
  if (parts[0] === 'shared') return { kind: 'shared' };
  if (parts[0] === 'testing') return { kind: 'testing' };
  return { kind: 'app' };
}

export function checkImports(root: string): Problem[] {
  const problems: Problem[] = [];
  const frontends = join(root, 'frontends');
  const names = readdirSync(frontends).filter((n) => {
    try {
      return statSync(join(frontends, n, 'src')).isDirectory();
    } catch {
      return false;
    }
  });
  const scan = (file: string, check: (spec: string, typeOnly: boolean) => string | undefined) => {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[3] ?? m[4] ?? '';
      const rule = check(spec, !!m[2]);
      if (rule) {
        const line = text.slice(0, m.index + (m[0].startsWith('\n') ? 1 : 0)).split('\n').length;
        problems.push({ file: relative(root, file), line, spec, rule });
      }
    }
  };
  for (const name of names) {
    const src = join(frontends, name, 'src');
    const isRemote = name !== 'shell';
    for (const file of sources(src)) {
      const from = layer(file, src);
      const isTest = /\.(dom|unit|int|e2e)\.test\.tsx?$/.test(file);
      scan(file, (spec, typeOnly) => {
        if (FRONTEND_PACKAGE.test(spec)) return 'a frontend never imports another frontend';
        const via = (p: string) => spec === p || spec.startsWith(`${p}/`);
        if (!isTest && !typeOnly && ONLY_VIA_SCREEN.some(via))
          return `a frontend imports ${spec} through @bahi/ui/screen or @bahi/ui/form (one shared instance)`;
        if (isRemote && !isTest && !typeOnly && via('react-router'))
          return 'a remote imports routing through @bahi/ui (the shell’s router instance)';
        if (!spec.startsWith('.')) return undefined;
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(src + sep)) {
          return target.startsWith(frontends + sep)
            ? 'a frontend never imports another frontend'
            : 'a frontend imports packages by name (@bahi/ui, @bahi/contracts), not by path';
        }
        const to = layer(target, src);
        if (from.kind === 'feature') {
          if (to.kind === 'feature' && to.feature !== from.feature)
            return 'a feature never imports another feature';
          if (to.kind === 'app') return 'a feature never imports the app (app -> features -> shared)';
        }
        if (from.kind === 'shared' && (to.kind === 'feature' || to.kind === 'app'))
          return 'shared code never imports a feature or the app (app -> features -> shared)';
        return undefined;
      });
    }
  }
  for (const file of sources(join(root, 'packages', 'ui', 'src'))) {
    scan(file, (spec) =>
      FRONTEND_PACKAGE.test(spec) ||
      (spec.startsWith('.') && resolve(dirname(file), spec).startsWith(frontends))
        ? '@bahi/ui never imports a frontend'
        : undefined,
    );
  }
  return problems;
}

interface Workspace {
  name: string;
  dir: string;
  kind: 'package' | 'service';
  dependencies: string[];
}

function workspaces(root: string): Workspace[] {
  const out: Workspace[] = [];
  for (const [folder, kind] of [
    ['packages', 'package'],
    ['services', 'service'],
  ] as const) {
    const base = join(root, folder);
    let names: string[] = [];
    try {
      names = readdirSync(base);
    } catch {
      continue;
    }
    for (const name of names) {
      const dir = join(base, name);
      let manifest: { name?: string; dependencies?: Record<string, string> };
      try {
        manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (!manifest.name) continue;
      out.push({ name: manifest.name, dir, kind, dependencies: Object.keys(manifest.dependencies ?? {}) });
    }
  }
  return out;
}

const STANDALONE = '@bahi/standalone';
const isTestFile = (file: string) =>
  /\.(dom|unit|int|e2e)\.test\.tsx?$/.test(file) || file.includes(`${sep}testing${sep}`);

export function checkServerImports(root: string): Problem[] {
  const problems: Problem[] = [];
  const all = workspaces(root);
  const services = all.filter((w) => w.kind === 'service');
  const serviceOf = (spec: string) => services.find((w) => spec === w.name || spec.startsWith(`${w.name}/`));
  const serviceAt = (path: string) => services.find((w) => path === w.dir || path.startsWith(w.dir + sep));
  for (const ws of all) {
    const src = join(ws.dir, 'src');
    let files: string[] = [];
    try {
      files = [...sources(src)];
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[3] ?? m[4] ?? '';
        const target = spec.startsWith('.') ? serviceAt(resolve(dirname(file), spec)) : serviceOf(spec);
        if (!target || target.name === ws.name) continue;
        let rule: string | undefined;
        if (ws.kind === 'package') rule = 'a package never imports a service';
        else if (ws.name !== STANDALONE && !isTestFile(file))
          rule = 'a service never imports another service (shared code goes into packages/)';
        if (rule) {
          const line = text.slice(0, m.index + (m[0].startsWith('\n') ? 1 : 0)).split('\n').length;
          problems.push({ file: relative(root, file), line, spec, rule });
        }
      }
    }
  }
  // Cycles in the workspaces' dependencies (each reported once, from its first member by name).
  const byName = new Map(all.map((w) => [w.name, w]));
  const reported = new Set<string>();
  const visit = (name: string, path: string[]) => {
    const at = path.indexOf(name);
    if (at >= 0) {
      const cycle = path.slice(at);
      const key = [...cycle].sort().join(' ');
      if (!reported.has(key)) {
        reported.add(key);
        const ws = byName.get(cycle[0]!)!;
        problems.push({
          file: relative(root, join(ws.dir, 'package.json')),
          line: 1,
          spec: [...cycle, cycle[0]].join(' -> '),
          rule: 'the workspaces depend on each other in a cycle',
        });
      }
      return;
    }
    for (const dep of byName.get(name)?.dependencies ?? []) if (byName.has(dep)) visit(dep, [...path, name]);
  };
  for (const name of [...byName.keys()].sort()) visit(name, []);
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = [...checkImports(root), ...checkServerImports(root)];
  for (const p of problems) console.error(`${p.file}:${p.line}: '${p.spec}': ${p.rule}`);
  if (problems.length) {
    console.error(`check-imports: ${problems.length} import(s) break the import direction`);
    process.exit(1);
  }
  console.log('check-imports: the frontends and the services keep their import direction');
}

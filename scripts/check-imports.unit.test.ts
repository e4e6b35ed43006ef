import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkImports, checkServerImports } from './check-imports.ts';

const root = mkdtempSync(join(tmpdir(), 'bahi-imports-'));
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

describe('the frontends’ import direction', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('passes on this repository', () => {
    expect(checkImports(join(dirname(fileURLToPath(import.meta.url)), '..'))).toEqual([]);
  });

  it('fails each import that breaks a rule, naming file, line and rule', () => {
    write('packages/ui/src/index.ts', "import { x } from '../../../frontends/masters/src/routes.tsx';\n");
    write(
      'frontends/masters/src/routes.tsx',
      "import { FundersPage } from './features/funders/funders-page.tsx';\n",
    );
    write(
      'frontends/masters/src/features/funders/funders-page.tsx',
      [
        "import { PayDialog } from '../agents/pay-dialog.tsx';",
        "import { Row } from '../../shared/row.tsx';",
        "import Routes from '../../routes.tsx';",
        "import { useQuery } from '@tanstack/react-query';",
        "import type { UseQueryResult } from '@tanstack/react-query';",
        "import { Link } from 'react-router';",
        "const lazy = () => import('../../../../transactions/src/routes.tsx');",
      ].join('\n'),
    );
    write('frontends/masters/src/shared/row.tsx', "export { X } from '../features/agents/x.ts';\n");
    write(
      'frontends/shell/src/app/app.tsx',
      "import { Link } from 'react-router';\nimport '@bahi/frontend-masters';\nimport { useForm } from 'react-hook-form';\n",
    );
    const found = checkImports(root).map((p) => `${p.file}:${p.line} ${p.rule}`);
    expect(found).toEqual([
      'frontends/masters/src/features/funders/funders-page.tsx:1 a feature never imports another feature',
      'frontends/masters/src/features/funders/funders-page.tsx:3 a feature never imports the app (app -> features -> shared)',
      'frontends/masters/src/features/funders/funders-page.tsx:4 a frontend imports @tanstack/react-query through @bahi/ui/screen or @bahi/ui/form (one shared instance)',
      'frontends/masters/src/features/funders/funders-page.tsx:6 a remote imports routing through @bahi/ui (the shell’s router instance)',
      'frontends/masters/src/features/funders/funders-page.tsx:7 a frontend never imports another frontend',
      'frontends/masters/src/shared/row.tsx:1 shared code never imports a feature or the app (app -> features -> shared)',
      'frontends/shell/src/app/app.tsx:2 a frontend never imports another frontend',
      'frontends/shell/src/app/app.tsx:3 a frontend imports react-hook-form through @bahi/ui/screen or @bahi/ui/form (one shared instance)',
      'packages/ui/src/index.ts:1 @bahi/ui never imports a frontend',
    ]);
  });
});

describe('the services’ import direction', () => {
  const tree = mkdtempSync(join(tmpdir(), 'bahi-server-imports-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  };
  const manifest = (name: string, deps: string[] = []) =>
    JSON.stringify({ name, dependencies: Object.fromEntries(deps.map((d) => [d, '*'])) });

  it('passes on this repository', () => {
    expect(checkServerImports(join(dirname(fileURLToPath(import.meta.url)), '..'))).toEqual([]);
  });

  it('fails a package importing a service, a service importing another, and a dependency cycle', () => {
    put('packages/a/package.json', manifest('@bahi/a', ['@bahi/b']));
    put('packages/b/package.json', manifest('@bahi/b', ['@bahi/a']));
    put('packages/a/src/index.ts', "import { x } from '@bahi/query';\n");
    put('services/query/package.json', manifest('@bahi/query'));
    put('services/query/src/index.ts', 'export const x = 1;\n');
    put('services/command/package.json', manifest('@bahi/command', ['@bahi/a']));
    put(
      'services/command/src/routes.ts',
      "import { a } from '@bahi/a';\nimport { x } from '@bahi/query';\nimport { y } from '../../query/src/index.ts';\n",
    );
    // Allowed: a test driving another service, and the standalone, which runs them all.
    put('services/command/src/routes.int.test.ts', "import { x } from '@bahi/query';\n");
    put('services/standalone/package.json', manifest('@bahi/standalone'));
    put('services/standalone/src/main.ts', "import { x } from '@bahi/query';\nimport '@bahi/command';\n");
    const found = checkServerImports(tree).map((p) => `${p.file}:${p.line} ${p.spec}: ${p.rule}`);
    expect(found).toEqual([
      'packages/a/src/index.ts:1 @bahi/query: a package never imports a service',
      'services/command/src/routes.ts:2 @bahi/query: a service never imports another service (shared code goes into packages/)',
      'services/command/src/routes.ts:3 ../../query/src/index.ts: a service never imports another service (shared code goes into packages/)',
      'packages/a/package.json:1 @bahi/a -> @bahi/b -> @bahi/a: the workspaces depend on each other in a cycle',
    ]);
  });
});

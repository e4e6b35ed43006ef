/**
 * What a newcomer may rely on when reading the server side (issue #29), checked instead of eyeballed:
 *   - one door to the event log: no file calls the event store's `append` but the door
 *     (packages/server-kit/src/event-log.ts), the event store package itself, tests, test
 *     helpers (`testing/` folders) and benchmarks;
 *   - no function in services/ or packages/ over MAX_FUNCTION_LINES lines (tests, test helpers and
 *     benchmarks aside);
 *   - command route files (services/command/src/routes) under MAX_ROUTE_FILE_LINES lines, and no
 *     route file importing another route file: the handlers they share live in handlers/.
 * Syntax only (the TypeScript parser, no type checker): fast enough to run on every lint.
 *
 *   tsx scripts/house-rules.ts [root]      exits 1 and lists each place that breaks a rule
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface HouseProblem {
  file: string;
  line: number;
  rule: string;
}

export const MAX_FUNCTION_LINES = 120;
/**
 * Functions still over MAX_FUNCTION_LINES, each with the most lines it may keep until it is split
 * (a ratchet: it may shrink, never grow, and a new one may not join). None is left: the last,
 * the shadow rebuild (packages/projections/src/rebuild.ts), was split by what it does.
 */
export const STILL_LONG: Record<string, number> = {};
export const MAX_ROUTE_FILE_LINES = 200;
export const EVENT_LOG_DOOR = 'packages/server-kit/src/event-log.ts';
const ROUTES = 'services/command/src/routes';

function* sources(dir: string): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

const posix = (path: string) => path.split(sep).join('/');
const isTestOrHelper = (file: string) =>
  /\.(dom|unit|int|e2e|race)\.test\.tsx?$/.test(file) || /(^|\/)testing\//.test(file);

/** The server side's source files (services/, packages/, scripts/), relative to root, tests left out. */
function serverSources(root: string): string[] {
  const out: string[] = [];
  for (const top of ['services', 'packages', 'scripts'])
    for (const file of sources(join(root, top))) {
      const rel = posix(relative(root, file));
      if (!isTestOrHelper(rel)) out.push(rel);
    }
  return out.sort();
}

const parse = (root: string, file: string) =>
  ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);

/** A shared test suite kept beside the code (the event store's contract): it imports vitest. */
const isSuite = (source: ts.SourceFile) =>
  source.statements.some(
    (s) =>
      ts.isImportDeclaration(s) &&
      ts.isStringLiteral(s.moduleSpecifier) &&
      s.moduleSpecifier.text === 'vitest',
  );

const lineOf = (source: ts.SourceFile, pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;

/** `store.append(`, `deps.eventStore.append(`, `x.eventStore['append'](`: a receiver named like a store. */
function isStoreAppend(call: ts.CallExpression): boolean {
  const callee = call.expression;
  let receiver: ts.Expression;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'append') receiver = callee.expression;
  else if (
    ts.isElementAccessExpression(callee) &&
    ts.isStringLiteralLike(callee.argumentExpression) &&
    callee.argumentExpression.text === 'append'
  )
    receiver = callee.expression;
  else return false;
  const name = ts.isIdentifier(receiver)
    ? receiver.text
    : ts.isPropertyAccessExpression(receiver)
      ? receiver.name.text
      : '';
  return /store$/i.test(name);
}

/** Each call of the event store's `append` outside the door, the event store package, tests and benchmarks. */
export function eventLogSideDoors(root: string): HouseProblem[] {
  const problems: HouseProblem[] = [];
  for (const file of serverSources(root)) {
    if (file === EVENT_LOG_DOOR || file.startsWith('packages/event-store/')) continue;
    const source = parse(root, file);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && isStoreAppend(node))
        problems.push({
          file,
          line: lineOf(source, node.getStart()),
          rule: `appends to the event log outside its one door: call appendToLog (${EVENT_LOG_DOOR})`,
        });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return problems;
}

function functionName(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isCallExpression(parent))
    return `a callback of ${parent.expression.getText().slice(0, 40)}`;
  return 'an anonymous function';
}

/** Every function (declaration, method, arrow, expression) longer than `max` lines, nested ones included. */
export function longFunctions(root: string, max = MAX_FUNCTION_LINES): HouseProblem[] {
  const problems: HouseProblem[] = [];
  for (const file of serverSources(root)) {
    if (!file.startsWith('services/') && !file.startsWith('packages/')) continue;
    const source = parse(root, file);
    if (isSuite(source)) continue;
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
        const first = lineOf(source, node.getStart());
        const lines = lineOf(source, node.getEnd()) - first + 1;
        const allowed = STILL_LONG[`${file} ${functionName(node)}`];
        if (lines > max && !(allowed !== undefined && lines <= allowed && max === MAX_FUNCTION_LINES))
          problems.push({
            file,
            line: first,
            rule: `${functionName(node)} is ${lines} lines (at most ${max}): split it by what it does`,
          });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return problems;
}

/** Command route files over `max` lines, and route files that import another route file. */
export function routeFileProblems(root: string, max = MAX_ROUTE_FILE_LINES): HouseProblem[] {
  const problems: HouseProblem[] = [];
  const routes = resolve(root, ROUTES);
  for (const file of serverSources(root)) {
    if (!file.startsWith(`${ROUTES}/`)) continue;
    const source = parse(root, file);
    const lines = source.getLineAndCharacterOfPosition(source.getEnd()).line + 1;
    if (lines > max)
      problems.push({
        file,
        line: 1,
        rule: `a route file of ${lines} lines (at most ${max}): move handlers out`,
      });
    for (const statement of source.statements) {
      const spec =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
        statement.moduleSpecifier &&
        ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : undefined;
      if (!spec?.startsWith('.')) continue;
      const target = resolve(root, dirname(file), spec);
      if (dirname(target) === routes && /\.routes\.ts$/.test(target))
        problems.push({
          file,
          line: lineOf(source, statement.getStart()),
          rule: `imports another route file (${spec}): what both need belongs in handlers/`,
        });
    }
  }
  return problems;
}

export function houseRules(root: string): HouseProblem[] {
  return [...eventLogSideDoors(root), ...longFunctions(root), ...routeFileProblems(root)];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = houseRules(root);
  for (const p of problems) console.error(`${p.file}:${p.line}  ${p.rule}`);
  if (problems.length > 0) {
    console.error(`\n${problems.length} place(s) break the house rules (scripts/house-rules.ts).`);
    process.exit(1);
  }
}

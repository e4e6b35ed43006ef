import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EVENT_LOG_DOOR,
  eventLogSideDoors,
  houseRules,
  longFunctions,
  MAX_FUNCTION_LINES,
  routeFileProblems,
} from './house-rules.ts';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = mkdtempSync(join(tmpdir(), 'bahi-house-'));
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('one door to the event log', () => {
  it('holds on this repository: only the door appends', () => {
    expect(eventLogSideDoors(repository)).toEqual([]);
  });

  it('fails each append to the store outside the door, naming file and line', () => {
    write(EVENT_LOG_DOOR, 'export const door = (store) => store.append("s", [], "any");\n');
    write('packages/event-store/src/postgres.ts', 'await store.append("s", [], "any");\n');
    write('services/command/src/routes/x.int.test.ts', 'await deps.eventStore.append("s", [], "any");\n');
    write('services/standalone/src/testing/poison.ts', 'await eventStore.append("s", [], "any");\n');
    write(
      'services/command/src/routes/notes.routes.ts',
      [
        'const form = new FormData();',
        "form.append('a', 'b');",
        'await deps.eventStore.append("notes", [{ type: "NoteWritten", data: {} }], "any");',
        'await store["append"]("notes", [], "any");',
      ].join('\n'),
    );
    write(
      'packages/projections/src/side.ts',
      'export const f = (eventStore) =>\n  eventStore.append("s", [], "any");\n',
    );
    expect(eventLogSideDoors(root)).toEqual([
      { file: 'packages/projections/src/side.ts', line: 2, rule: expect.stringContaining('appendToLog') },
      {
        file: 'services/command/src/routes/notes.routes.ts',
        line: 3,
        rule: expect.stringContaining('appendToLog'),
      },
      {
        file: 'services/command/src/routes/notes.routes.ts',
        line: 4,
        rule: expect.stringContaining('appendToLog'),
      },
    ]);
  });
});

describe('a house a newcomer reads in an hour', () => {
  it('holds on this repository: no long function, route files short and apart', () => {
    expect(houseRules(repository)).toEqual([]);
  });

  const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const a${i} = ${i};`).join('\n');

  it('fails a function over the limit, nested ones too, but not in tests or test suites', () => {
    const limit = MAX_FUNCTION_LINES;
    write('packages/x/src/long.ts', `export function long() {\n${body(limit - 1)}\n}\n`);
    write('packages/x/src/fits.ts', `export function fits() {\n${body(limit - 2)}\n}\n`);
    write(
      'services/y/src/nested.ts',
      `export const outer = () => {\n  return () => {\n${body(limit)}\n  };\n};\n`,
    );
    write('services/y/src/long.int.test.ts', `it('x', () => {\n${body(limit + 10)}\n});\n`);
    write(
      'packages/x/src/suite.ts',
      `import { it } from 'vitest';\nexport function suite() {\n${body(limit + 10)}\n}\n`,
    );
    expect(longFunctions(root).map((p) => [p.file, p.line, p.rule.split(' is ')[0]])).toEqual([
      ['packages/x/src/long.ts', 1, 'long'],
      ['services/y/src/nested.ts', 1, 'outer'],
      ['services/y/src/nested.ts', 2, 'an anonymous function'],
    ]);
  });

  it('fails a command route file that is long or imports another route file', () => {
    write('services/command/src/routes/big.routes.ts', `${'// line\n'.repeat(200)}`);
    write(
      'services/command/src/routes/small.routes.ts',
      [
        "import { requireActive } from './masters.routes.ts';",
        "import { recordIdParams } from './params.ts';",
        "import { x } from '../handlers/look-ups.ts';",
      ].join('\n'),
    );
    expect(routeFileProblems(root)).toEqual([
      {
        file: 'services/command/src/routes/big.routes.ts',
        line: 1,
        rule: expect.stringContaining('201 lines'),
      },
      {
        file: 'services/command/src/routes/small.routes.ts',
        line: 1,
        rule: expect.stringContaining('./masters.routes.ts'),
      },
    ]);
  });
});

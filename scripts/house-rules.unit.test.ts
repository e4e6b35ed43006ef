import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_LOG_DOOR, eventLogSideDoors } from './house-rules.ts';

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

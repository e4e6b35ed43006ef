import { defineConfig } from 'vitest/config';

const exclude = ['**/node_modules/**', '**/dist/**', '**/data/**'];

// Test levels by file name: *.unit.test.ts (pure), *.dom.test.ts(x) (React components in
// happy-dom), *.int.test.ts (real Postgres, Redis, PGlite, nginx), *.e2e.test.ts (real
// Chromium against the standalone app, with the frontends built first if they are stale).
//
// Two files at a time for unit, dom and int (vitest's default on 2 cores is one): int files
// mostly wait on Postgres, Redis and child processes, and each has its own database and key
// prefix (test/postgres.ts). e2e files run one at a time, after the rest (their own group).
const TWO_AT_A_TIME = { maxWorkers: 2, sequence: { groupOrder: 0 } };

export default defineConfig({
  test: {
    reporters: process.env.CI
      ? ['verbose', './test/summary-reporter.ts']
      : ['default', './test/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['**/*.unit.test.ts'], exclude, ...TWO_AT_A_TIME } },
      {
        extends: true,
        test: {
          name: 'dom',
          include: ['**/*.dom.test.{ts,tsx}'],
          exclude,
          environment: 'happy-dom',
          setupFiles: ['./frontends/dom-setup.ts'],
          ...TWO_AT_A_TIME,
        },
      },
      {
        extends: true,
        test: { name: 'int', include: ['**/*.int.test.ts'], exclude, pool: 'forks', ...TWO_AT_A_TIME },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['**/*.e2e.test.ts'],
          exclude,
          pool: 'forks',
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          globalSetup: ['./frontends/e2e/global-setup.ts'],
        },
      },
    ],
  },
});

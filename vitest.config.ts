import { defineConfig } from 'vitest/config';

const exclude = ['**/node_modules/**', '**/dist/**', '**/data/**'];

// Test levels by file name: *.unit.test.ts (pure), *.int.test.ts (real Postgres, Redis,
// PGlite, nginx), *.e2e.test.ts (real Chromium against the standalone app).
export default defineConfig({
  test: {
    reporters: process.env.CI
      ? ['verbose', './test/summary-reporter.ts']
      : ['default', './test/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['**/*.unit.test.ts'], exclude } },
      { extends: true, test: { name: 'int', include: ['**/*.int.test.ts'], exclude, pool: 'forks' } },
      {
        extends: true,
        test: { name: 'e2e', include: ['**/*.e2e.test.ts'], exclude, pool: 'forks', fileParallelism: false },
      },
    ],
  },
});

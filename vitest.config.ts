import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // one temporary folder per run, removed at its end (test/global-setup.ts)
    globalSetup: ['test/global-setup.ts'],
  },
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine. Most files
    // wait on local servers and child processes rather than compute, so a worker per core overlaps them.
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});

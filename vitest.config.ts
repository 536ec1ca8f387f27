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
    // wait on local servers and child processes rather than compute, so one worker more than the cores
    // overlaps them (measured on 2 cores: 119 s with two workers, 107 s with three).
    maxWorkers: Math.max(3, availableParallelism() + 1),
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The suite is bound by the CPU of two cores, and most of a file's cost was loading the module graph
 * again in a fresh process (about 2.5 s a file). Files that close what they open share their workers
 * (`isolate: false`) and load each module once per worker, those that start processes or servers too: on
 * this machine 49 files of their own took 198 s (343 s of CPU), 12 take 165 s (275 s of CPU). These files
 * keep a process of their own each.
 */
const ISOLATED = [
  // Kill processes they started, or hold a store, a lease or ports for long.
  'test/worker/**',
  'test/e2e/store-outage.test.ts',
  'test/e2e/store-outage-sqlite.test.ts',
  'test/e2e/restart.test.ts',
  // The whole demo (sandbox, stand-in, bot) for as long as it plays.
  'test/dev/demo/**',
  'test/secrets/canary.test.ts',
  'test/discord/process.test.ts',
  // Installs a process-wide undici dispatcher on purpose.
  'test/discord/upload-dispatcher.test.ts',
  // Kills a child process in the middle of a role sync.
  'test/features/roles/left-behind.test.ts',
  // Drives the worker's real loops against a failing store and database, for a long time on a manual clock.
  'test/announcements/outage.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine. Many files
    // wait on local servers and child processes rather than compute, so one worker more than the cores
    // overlaps them.
    maxWorkers: Math.max(3, availableParallelism() + 1),
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED.map((glob) => (glob.endsWith('/**') ? `${glob}/*.test.ts` : glob)),
        },
      },
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false },
      },
    ],
  },
});

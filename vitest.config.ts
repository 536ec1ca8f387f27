import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The suite is bound by the CPU of two cores, and most of a file's cost was loading the module graph
 * again in a fresh process. Files that close what they open share their workers (`isolate: false`), and
 * load each module once per worker: 125-130 s became 74-81 s on this machine. These files keep a process
 * of their own each.
 */
const ISOLATED = [
  // Spawn processes, hold ports for long, or change process-wide state (the logger, spies, fake timers).
  'test/processes/**',
  'test/worker/**',
  'test/deploy/**',
  'test/e2e/**',
  // discord.js clients against the stand-in: uploads and REST queues of their own.
  'test/dev/standin/**',
  // The whole demo (sandbox, stand-in, bot) for as long as it plays.
  'test/dev/demo/**',
  'test/log/**',
  'test/secrets/**',
  'test/store/**',
  'test/metrics/**',
  'test/discord/process.test.ts',
  // Installs a process-wide undici dispatcher on purpose.
  'test/discord/upload-dispatcher.test.ts',
  'test/api/cache.test.ts',
  'test/api/cli.test.ts',
  'test/announcements/intent.test.ts',
  'test/announcements/budget.test.ts',
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

import { loadConfig } from '../../src/config/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { startWorker } from '../../src/worker.ts';

/**
 * One worker process, as `PROCESS_ROLE=worker` runs it, for the failover test: configured from its
 * environment, it says on stdout when it is the worker, and stops on SIGTERM (SIGKILL is the crash).
 */
const config = loadConfig(process.env);
const token = config.discord.token ?? '';
const worker = await startWorker({ config, token, logger: createLogger({ level: 'warn' }) });
let last = '';
const report = setInterval(() => {
  const { state } = worker.health();
  if (state !== last) process.stdout.write(`state ${state}\n`);
  last = state;
}, 20);
process.once('SIGTERM', () => {
  clearInterval(report);
  void worker.stop().then(() => process.exit(0));
});

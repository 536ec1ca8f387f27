import { pino } from 'pino';
import { systemClock } from '../../src/core/clock.ts';
import { openDatabase } from '../../src/db/index.ts';
import { RoleSyncer, type RoleRest } from '../../src/features/roles/sync.ts';
import { standinRest } from './roles-left-behind.ts';

/**
 * A process doing a `/roles sync` (started by `roles-left-behind.ts`): once Discord has given the
 * `pauseAfter`th role it says so and waits, before the bot could confirm that grant, for the SIGKILL.
 */
interface ChildOptions {
  readonly databaseUrl: string;
  readonly restUrl: string;
  readonly token: string;
  readonly guildId: string;
  readonly pauseAfter: number;
}

const options = JSON.parse(process.env.KF_ROLES_CHILD ?? '{}') as ChildOptions;
const db = await openDatabase(options.databaseUrl);
const rest = standinRest({ restUrl: options.restUrl, token: options.token });
let given = 0;
const pausing: RoleRest = {
  get: (route, data) => rest.get(route, data),
  delete: (route, data) => rest.delete(route, data),
  async put(route, data) {
    const answer = await rest.put(route, data);
    given += 1;
    if (given >= options.pauseAfter) {
      process.send?.({ type: 'given' });
      await new Promise(() => undefined);
    }
    return answer;
  },
};
await new RoleSyncer({ db, rest: pausing, clock: systemClock, log: pino({ level: 'silent' }) }).sync(
  options.guildId,
);
process.exit(0);

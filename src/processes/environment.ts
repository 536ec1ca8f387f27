/**
 * The environment of the shard processes, and the one place outside src/config that touches
 * `process.env`: discord.js's sharding speaks through environment variables (`SHARDING_MANAGER`,
 * `SHARDS`, `SHARD_COUNT`, `DISCORD_TOKEN`), in both directions, so this module hands them down to each
 * child and reads them back in the child. The configuration itself is still read by src/config only.
 */
export type Environment = Readonly<Record<string, string | undefined>>;

/** What discord.js's sharding writes into the manager's own environment; we put it back as it was. */
const MANAGER_WRITES = ['SHARDING_MANAGER', 'SHARDING_MANAGER_MODE', 'DISCORD_TOKEN'] as const;

/** This process's environment, for the children to inherit. */
export function processEnvironment(): Environment {
  // eslint-disable-next-line no-restricted-properties -- the children inherit this process's environment
  return process.env;
}

/**
 * The environment of shard `id` of `total`: the parent's, less `HTTP_PORT` (the parent serves it; blank
 * rather than absent so that a `.env` file cannot bring it back), with discord.js's variables (the client
 * reads `SHARDS` and `SHARD_COUNT` itself) and ours agreeing on the same shard.
 */
export function shardEnvironment(base: Environment, id: number, total: number, token: string): Environment {
  return {
    ...base,
    HTTP_PORT: '',
    PROCESS_ROLE: 'shards',
    SHARD_COUNT: String(total),
    SHARD_IDS: String(id),
    SHARDS: JSON.stringify([id]),
    SHARDING_MANAGER: 'true',
    SHARDING_MANAGER_MODE: 'process',
    DISCORD_TOKEN: token,
  };
}

/**
 * Runs `build` (the ShardingManager's constructor) and restores the variables it writes into this
 * process's environment: the token would otherwise sit there for every later child process, and
 * `SHARDING_MANAGER` would make any discord.js client made in this process think it is a shard.
 */
export function keepingEnvironment<T>(build: () => T): T {
  // eslint-disable-next-line no-restricted-properties -- undoing discord.js's writes to it
  const env = process.env;
  const saved = MANAGER_WRITES.map((name) => [name, env[name]] as const);
  try {
    return build();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Reflect.deleteProperty(env, name);
      else env[name] = value;
    }
  }
}

/** Thrown when a shard process is started with shards that disagree or are missing. */
export class ShardEnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShardEnvironmentError';
  }
}

/**
 * In a shard process: the `SHARDS` value that makes the discord.js client run exactly the shards the
 * configuration names (`SHARD_IDS` of `SHARD_COUNT`). The client reads `SHARDS` and `SHARD_COUNT` from the
 * environment when it is made, and without `SHARDS` it would run every shard of the count; a `SHARDS`
 * that names other shards than `SHARD_IDS` is refused.
 */
export function shardsToPin(ids: readonly number[], total: number, env: Environment): string {
  const wanted = JSON.stringify([...ids].sort((a, b) => a - b));
  if (Number(env.SHARD_COUNT) !== total) {
    throw new ShardEnvironmentError(`SHARD_COUNT must be ${total} in a shard process`);
  }
  const given = env.SHARDS;
  if (given === undefined || given.trim() === '') return wanted;
  let parsed: unknown;
  try {
    parsed = JSON.parse(given);
  } catch {
    parsed = undefined;
  }
  const list: unknown[] = typeof parsed === 'number' ? [parsed] : Array.isArray(parsed) ? parsed : [];
  const numbers = list.filter((id): id is number => Number.isInteger(id));
  if (numbers.length !== list.length || JSON.stringify(numbers.sort((a, b) => a - b)) !== wanted) {
    throw new ShardEnvironmentError(`SHARDS and SHARD_IDS (${ids.join(',')}) name different shards`);
  }
  return wanted;
}

/** Sets `SHARDS` for the discord.js client this shard process makes next (see {@link shardsToPin}). */
export function pinShards(ids: readonly number[], total: number): void {
  // eslint-disable-next-line no-restricted-properties -- read by the discord.js client made next
  const env = process.env;
  env.SHARDS = shardsToPin(ids, total, env);
}

import { existsSync } from 'node:fs';
import { inspect } from 'node:util';
import { REDACTED, registerSecret, type LogLevel } from '../log/index.ts';
import { environment, pick, type Environment, type ProcessRole, type Variable } from './schema.ts';

export { PROCESS_ROLES, type ProcessRole } from './schema.ts';
import { keyIdOf } from './secret-key.ts';

/** Thrown when the environment is invalid; the message has one line per failing variable and no values. */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    const lines = problems.map((p) => `  ${p.variable}: ${p.reason}`);
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`Invalid configuration (${count}):\n${lines.join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export interface ConfigProblem {
  readonly variable: string;
  readonly reason: string;
}

export interface Config {
  readonly discord: {
    /** Absent in tools that never log in (deploy dry runs, the sandbox); see {@link requireDiscordToken}. */
    readonly token?: string;
    /** REST base without the version segment and without a trailing slash. */
    readonly apiUrl: string;
    /** Commands are deployed to this guild only while developing. */
    readonly devGuildId?: string;
  };
  readonly game: {
    readonly baseUrl: string;
    readonly legacyUrl: string;
    readonly matchmakerUrl: string;
    readonly apiKey?: string;
    readonly apiKeyHeader: string;
    /** Sent as `hostname` with every lobby list call. */
    readonly hostname: string;
  };
  /** Key-value storage (Keyv): the reply cache, autocomplete names, short leases and claims. */
  readonly store: { readonly url: string };
  /** The SQL database of the domain records (subscriptions, links, keys, deliveries...). */
  readonly database: { readonly url: string };
  /** When set, the game API limits are shared through this Redis by every process; otherwise kept in memory. */
  readonly redis: { readonly url?: string };
  /** What this process runs, and which shards (see docs in the README, "Running at scale"). */
  readonly processes: {
    readonly role: ProcessRole;
    readonly shardCount: number | 'auto';
    /** The shards this machine runs; all of them when absent. */
    readonly shardIds?: readonly number[];
  };
  readonly secret: {
    /** 32 bytes that encrypt stored credentials (linked keys, player tokens). */
    readonly key?: Buffer;
    /** A short stable id of `key`, stored beside what it encrypted so that a rotation can be detected. */
    readonly keyId?: string;
  };
  readonly events: {
    readonly pollSeconds: number;
    /** How long the worker's lease lasts unrenewed: a standby takes over within this time of a crash. */
    readonly leaseSeconds: number;
  };
  /** Following players: `/track` limits and the background refresh targets (stretched when the budget is short). */
  readonly follow: {
    /** Tracked players a server may have (`/track add`). */
    readonly trackLimit: number;
    /** How often a tracked player is looked at, at most. */
    readonly trackMinutes: number;
    /** How often a linked player's snapshot is refreshed, at most. */
    readonly linkedHours: number;
  };
  /** Price alerts (`/alert`): how many one user, and one server, may have. */
  readonly alerts: {
    readonly userLimit: number;
    readonly guildLimit: number;
  };
  /** Present only when WEBHOOK_PORT, WEBHOOK_SECRET and WEBHOOK_SERVICE are all set. */
  readonly webhook?: {
    readonly port: number;
    readonly secret: string;
    readonly service: string;
    readonly path: string;
    readonly toleranceSeconds: number;
  };
  /** The operations endpoint (`/healthz`, `/metrics`): off without a port; loopback unless HTTP_HOST says. */
  readonly http: { readonly host: string; readonly port?: number };
  readonly log: { readonly level: LogLevel };
}

/** The password of a store URL, when it has one; it is a secret like the others. */
function storePassword(url: string): string | undefined {
  try {
    const password = new URL(url).password;
    return password === '' ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}

function build(env: Environment): Config {
  const secretKey = env.SECRET_KEY ?? env.SECRET_KEY_FILE;
  const webhook =
    env.WEBHOOK_PORT !== undefined && env.WEBHOOK_SECRET !== undefined && env.WEBHOOK_SERVICE !== undefined
      ? {
          port: env.WEBHOOK_PORT,
          secret: env.WEBHOOK_SECRET,
          service: env.WEBHOOK_SERVICE,
          path: env.WEBHOOK_PATH,
          toleranceSeconds: env.WEBHOOK_TOLERANCE_SECONDS,
        }
      : undefined;
  return {
    discord: {
      ...(env.DISCORD_TOKEN === undefined ? {} : { token: env.DISCORD_TOKEN }),
      apiUrl: env.DISCORD_API_URL,
      ...(env.DISCORD_DEV_GUILD_ID === undefined ? {} : { devGuildId: env.DISCORD_DEV_GUILD_ID }),
    },
    game: {
      baseUrl: env.GAME_API_URL,
      legacyUrl: env.GAME_LEGACY_URL,
      matchmakerUrl: env.GAME_MATCHMAKER_URL,
      ...(env.GAME_API_KEY === undefined ? {} : { apiKey: env.GAME_API_KEY }),
      apiKeyHeader: env.GAME_API_KEY_HEADER,
      hostname: env.GAME_HOSTNAME,
    },
    store: { url: env.STORE_URL },
    database: { url: env.DATABASE_URL },
    redis: env.REDIS_URL === undefined ? {} : { url: env.REDIS_URL },
    processes: {
      role: env.PROCESS_ROLE,
      shardCount: env.SHARD_COUNT,
      ...(env.SHARD_IDS === undefined ? {} : { shardIds: env.SHARD_IDS }),
    },
    secret: secretKey === undefined ? {} : { key: secretKey, keyId: keyIdOf(secretKey) },
    events: { pollSeconds: env.EVENTS_POLL_SECONDS, leaseSeconds: env.WORKER_LEASE_SECONDS },
    follow: {
      trackLimit: env.TRACK_LIMIT,
      trackMinutes: env.TRACK_REFRESH_MINUTES,
      linkedHours: env.LINKED_REFRESH_HOURS,
    },
    alerts: { userLimit: env.ALERT_USER_LIMIT, guildLimit: env.ALERT_GUILD_LIMIT },
    ...(webhook === undefined ? {} : { webhook }),
    http: { host: env.HTTP_HOST, ...(env.HTTP_PORT === undefined ? {} : { port: env.HTTP_PORT }) },
    log: { level: env.LOG_LEVEL },
  };
}

/** Makes a config object print its {@link describeConfig} summary in JSON and `util.inspect`, never secrets. */
function guard<T extends object>(target: T, summary: () => unknown): Readonly<T> {
  Object.defineProperty(target, 'toJSON', { value: summary, enumerable: false });
  Object.defineProperty(target, inspect.custom, { value: summary, enumerable: false });
  return Object.freeze(target);
}

function protect(config: Config): Config {
  const summary = describeConfig(config);
  guard(config.discord, () => summary.discord);
  guard(config.game, () => summary.game);
  guard(config.store, () => summary.store);
  guard(config.database, () => summary.database);
  guard(config.redis, () => summary.redis);
  Object.freeze(config.processes);
  guard(config.secret, () => summary.secret);
  if (config.webhook !== undefined) guard(config.webhook, () => summary.webhook);
  Object.freeze(config.events);
  Object.freeze(config.follow);
  Object.freeze(config.alerts);
  Object.freeze(config.http);
  Object.freeze(config.log);
  return guard(config, () => summary);
}

function registerSecrets(config: Config, env: Record<Variable, string | undefined>): void {
  const values = [
    config.discord.token,
    config.game.apiKey,
    config.webhook?.secret,
    env.SECRET_KEY?.trim(),
    config.secret.key?.toString('base64'),
    config.secret.key?.toString('hex'),
    storePassword(config.store.url),
    storePassword(config.database.url),
    config.redis.url === undefined ? undefined : storePassword(config.redis.url),
  ];
  for (const value of values) if (value !== undefined) registerSecret(value);
}

/**
 * Reads the configuration from the environment (by default `process.env`). Throws {@link ConfigError}
 * listing every invalid variable at once. Registers the secrets it finds with the log redaction, so that
 * no log line can print them.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  const picked = pick(env);
  const result = environment.safeParse(picked);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => ({
      variable: typeof issue.path[0] === 'string' ? issue.path[0] : 'environment',
      reason: issue.message,
    }));
    throw new ConfigError(problems);
  }
  const config = build(result.data);
  registerSecrets(config, picked);
  return protect(config);
}

/**
 * Loads a dotenv file into `process.env` when the file exists; variables already set in the environment
 * keep their values. Returns whether a file was loaded.
 */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

/** The Discord bot token, or a {@link ConfigError} saying what to set; for the entry points that log in. */
export function requireDiscordToken(config: Config): string {
  const token = config.discord.token;
  if (token === undefined) {
    throw new ConfigError([
      {
        variable: 'DISCORD_TOKEN',
        reason:
          'is not set: set DISCORD_TOKEN to the bot token from the Discord developer portal (your application, then Bot, then Reset Token)',
      },
    ]);
  }
  return token;
}

function maskUrlPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = REDACTED;
    return parsed.href.replace(encodeURIComponent(REDACTED), REDACTED);
  } catch {
    return url;
  }
}

/** `kr_` and four characters stay when the key is long enough that they give nothing away. */
function maskApiKey(key: string): string {
  return `${key.length >= 16 ? key.slice(0, 7) : key.slice(0, 3)}${REDACTED}`;
}

export interface ConfigSummary {
  readonly discord: { readonly token?: string; readonly apiUrl: string; readonly devGuildId?: string };
  readonly game: Omit<Config['game'], 'apiKey'> & { readonly apiKey?: string };
  /** Key-value storage (Keyv): the reply cache, autocomplete names, short leases and claims. */
  readonly store: { readonly url: string };
  /** The SQL database of the domain records (subscriptions, links, keys, deliveries...). */
  readonly database: { readonly url: string };
  /** When set, the game API limits are shared through this Redis by every process; otherwise kept in memory. */
  readonly redis: { readonly url?: string };
  /** What this process runs, and which shards (see docs in the README, "Running at scale"). */
  readonly processes: {
    readonly role: ProcessRole;
    readonly shardCount: number | 'auto';
    /** The shards this machine runs; all of them when absent. */
    readonly shardIds?: readonly number[];
  };
  readonly secret: { readonly key?: string; readonly keyId?: string };
  readonly events: Config['events'];
  readonly follow: Config['follow'];
  readonly alerts: Config['alerts'];
  readonly webhook?: Omit<NonNullable<Config['webhook']>, 'secret'> & { readonly secret: string };
  readonly http: Config['http'];
  readonly log: Config['log'];
}

/**
 * A copy of the configuration that is safe to print: tokens, keys and secrets become `[redacted]`, an API key
 * keeps `kr_` and four characters, a store URL loses its password.
 */
export function describeConfig(config: Config): ConfigSummary {
  const { discord, game, secret, webhook } = config;
  return {
    discord: {
      ...(discord.token === undefined ? {} : { token: REDACTED }),
      apiUrl: discord.apiUrl,
      ...(discord.devGuildId === undefined ? {} : { devGuildId: discord.devGuildId }),
    },
    game: {
      baseUrl: game.baseUrl,
      legacyUrl: game.legacyUrl,
      matchmakerUrl: game.matchmakerUrl,
      ...(game.apiKey === undefined ? {} : { apiKey: maskApiKey(game.apiKey) }),
      apiKeyHeader: game.apiKeyHeader,
      hostname: game.hostname,
    },
    store: { url: maskUrlPassword(config.store.url) },
    database: { url: maskUrlPassword(config.database.url) },
    redis: config.redis.url === undefined ? {} : { url: maskUrlPassword(config.redis.url) },
    processes: config.processes,
    secret: {
      ...(secret.key === undefined ? {} : { key: REDACTED }),
      ...(secret.keyId === undefined ? {} : { keyId: secret.keyId }),
    },
    events: { pollSeconds: config.events.pollSeconds, leaseSeconds: config.events.leaseSeconds },
    follow: config.follow,
    alerts: config.alerts,
    ...(webhook === undefined
      ? {}
      : {
          webhook: {
            port: webhook.port,
            secret: REDACTED,
            service: webhook.service,
            path: webhook.path,
            toleranceSeconds: webhook.toleranceSeconds,
          },
        }),
    http: { host: config.http.host, ...(config.http.port === undefined ? {} : { port: config.http.port }) },
    log: { level: config.log.level },
  };
}

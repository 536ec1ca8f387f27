import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { z } from 'zod';
import { LOG_LEVELS, REDACTED, registerSecret, type LogLevel } from '../log/index.ts';

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
  readonly store: { readonly url: string };
  readonly secret: {
    /** 32 bytes that encrypt stored credentials (linked keys, player tokens). */
    readonly key?: Buffer;
    /** A short stable id of `key`, stored beside what it encrypted so that a rotation can be detected. */
    readonly keyId?: string;
  };
  readonly events: { readonly pollSeconds: number };
  /** Present only when WEBHOOK_PORT, WEBHOOK_SECRET and WEBHOOK_SERVICE are all set. */
  readonly webhook?: {
    readonly port: number;
    readonly secret: string;
    readonly service: string;
    readonly path: string;
    readonly toleranceSeconds: number;
  };
  readonly http: { readonly port?: number };
  readonly log: { readonly level: LogLevel };
}

/** Every variable the bot reads, in the order they are documented in `.env.example`. */
export const CONFIG_VARIABLES = [
  'DISCORD_TOKEN',
  'DISCORD_API_URL',
  'DISCORD_DEV_GUILD_ID',
  'GAME_API_URL',
  'GAME_LEGACY_URL',
  'GAME_MATCHMAKER_URL',
  'GAME_API_KEY',
  'GAME_API_KEY_HEADER',
  'GAME_HOSTNAME',
  'STORE_URL',
  'SECRET_KEY',
  'SECRET_KEY_FILE',
  'EVENTS_POLL_SECONDS',
  'WEBHOOK_PORT',
  'WEBHOOK_SECRET',
  'WEBHOOK_SERVICE',
  'WEBHOOK_PATH',
  'WEBHOOK_TOLERANCE_SECONDS',
  'HTTP_PORT',
  'LOG_LEVEL',
] as const;

type Variable = (typeof CONFIG_VARIABLES)[number];

const SANDBOX_HINT = '`npm run sandbox` starts a local stand-in and prints working values';
const STORE_SCHEMES = ['sqlite:', 'redis:', 'rediss:', 'postgres:', 'postgresql:', 'memory:'];
const SECRET_KEY_HINT =
  "generate one with: node -e \"console.log(require('node:crypto').randomBytes(32).toString('base64'))\"";

/** Text that was never given: `undefined` for an unset, empty or blank variable. */
const text = z
  .string()
  .optional()
  .transform((value) => {
    const trimmed = value?.trim();
    return trimmed === undefined || trimmed === '' ? undefined : trimmed;
  });

function required(reason: string) {
  return text.pipe(z.string({ error: reason }));
}

function httpUrl(example: string) {
  return z.string().transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `must be an http(s) URL such as ${example}` });
      return z.NEVER;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: `must start with http:// or https://, such as ${example}` });
      return z.NEVER;
    }
    if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) {
      ctx.addIssue({ code: 'custom', message: 'must not contain a query string or a fragment' });
      return z.NEVER;
    }
    if (url.username !== '' || url.password !== '') {
      ctx.addIssue({ code: 'custom', message: 'must not contain credentials' });
      return z.NEVER;
    }
    return value.replace(/\/+$/, '');
  });
}

function gameUrl(name: string, what: string) {
  return required(`is required: set it to the address of ${what} (${SANDBOX_HINT})`).pipe(
    httpUrl(`https://${name}.example.com`),
  );
}

function integer(min: number, max: number) {
  return z.string().transform((value, ctx) => {
    const parsed = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return parsed;
  });
}

function noWhitespace(what: string) {
  return z.string().regex(/^\S+$/, { error: `must be ${what} without spaces` });
}

/** A 32-byte key from 64 hex digits or from base64 (standard or URL-safe alphabet). */
function decodeKey(value: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return undefined;
  const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : undefined;
}

const secretKeyValue = z.string().transform((value, ctx) => {
  const key = decodeKey(value);
  if (key === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `must be exactly 32 bytes written as base64 or as 64 hex digits; ${SECRET_KEY_HINT}`,
    });
    return z.NEVER;
  }
  return key;
});

const secretKeyFile = z.string().transform((path, ctx) => {
  let content: string;
  try {
    content = readFileSync(path, 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    ctx.addIssue({ code: 'custom', message: `names a file that cannot be read (${code})` });
    return z.NEVER;
  }
  const key = decodeKey(content);
  if (key === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `names a file that does not hold exactly 32 bytes as base64 or 64 hex digits; ${SECRET_KEY_HINT}`,
    });
    return z.NEVER;
  }
  return key;
});

const optional = <T extends z.ZodType<unknown, string>>(schema: T) => text.pipe(schema.optional());

const environment = z
  .object({
    DISCORD_TOKEN: optional(
      z
        .string()
        .regex(/^(?!Bot\s)/i, { error: "must be the bare token, without the 'Bot ' prefix" })
        .pipe(noWhitespace('the bot token')),
    ),
    DISCORD_API_URL: text.pipe(httpUrl('https://discord.com/api').default('https://discord.com/api')),
    DISCORD_DEV_GUILD_ID: optional(
      z.string().regex(/^\d{17,20}$/, { error: 'must be a guild id (a snowflake of 17 to 20 digits)' }),
    ),
    GAME_API_URL: gameUrl('api', 'the game API ({base_url})'),
    GAME_LEGACY_URL: gameUrl('legacy', 'the legacy REST API ({legacy_url})'),
    GAME_MATCHMAKER_URL: gameUrl('matchmaker', 'the matchmaker ({matchmaker_url})'),
    GAME_API_KEY: optional(
      z
        .string()
        .regex(/^kr_/, { error: 'must start with kr_ (a developer API key)' })
        .pipe(noWhitespace('the API key')),
    ),
    GAME_API_KEY_HEADER: text.pipe(
      z
        .string()
        .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'must be an HTTP header name' })
        .default('X-Developer-API-Key'),
    ),
    GAME_HOSTNAME: text.pipe(
      z
        .string()
        .regex(/^(?=.{1,253}$)[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/, {
          error: 'must be a host name such as krunker.io',
        })
        .default('krunker.io'),
    ),
    STORE_URL: text.pipe(
      z
        .string()
        .refine((value) => STORE_SCHEMES.some((scheme) => value.startsWith(`${scheme}//`)), {
          error: `must start with one of ${STORE_SCHEMES.map((s) => `${s}//`).join(', ')}`,
        })
        .refine((value) => !value.startsWith('sqlite:') || value.length > 'sqlite://'.length, {
          error: 'must name a file after sqlite://, such as sqlite://data/bot.sqlite',
        })
        .default('sqlite://data/bot.sqlite'),
    ),
    SECRET_KEY: optional(secretKeyValue),
    SECRET_KEY_FILE: optional(secretKeyFile),
    EVENTS_POLL_SECONDS: text.pipe(integer(20, 60).default(30)),
    WEBHOOK_PORT: optional(integer(1, 65535)),
    WEBHOOK_SECRET: optional(z.string().min(8, { error: 'must be at least 8 characters long' })),
    WEBHOOK_SERVICE: optional(
      z.string().regex(/^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/, {
        error: 'must be a name usable in a header, such as Krunker',
      }),
    ),
    WEBHOOK_PATH: text.pipe(
      z
        .string()
        .regex(/^\/[^\s?#]*$/, { error: 'must be a path starting with / without spaces, query or fragment' })
        .default('/webhook'),
    ),
    WEBHOOK_TOLERANCE_SECONDS: text.pipe(integer(1, 3600).default(300)),
    HTTP_PORT: optional(integer(1, 65535)),
    LOG_LEVEL: text.pipe(
      z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    ),
  })
  .superRefine(
    (env, ctx) => {
      if (env.SECRET_KEY !== undefined && env.SECRET_KEY_FILE !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['SECRET_KEY_FILE'],
          message: 'cannot be set together with SECRET_KEY: keep one of the two',
        });
      }
      const webhook = ['WEBHOOK_PORT', 'WEBHOOK_SECRET', 'WEBHOOK_SERVICE'] as const;
      const set = webhook.filter((name) => env[name] !== undefined);
      if (set.length > 0 && set.length < webhook.length) {
        for (const name of webhook.filter((n) => env[n] === undefined)) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `is required when ${set.join(' and ')} ${set.length === 1 ? 'is' : 'are'} set (set all of ${webhook.join(', ')}, or none)`,
          });
        }
      }
    },
    { when: () => true },
  );

type Environment = z.output<typeof environment>;

function pick(env: Readonly<Record<string, string | undefined>>): Record<Variable, string | undefined> {
  const picked = {} as Record<Variable, string | undefined>;
  for (const name of CONFIG_VARIABLES) picked[name] = env[name];
  return picked;
}

function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
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
    secret: secretKey === undefined ? {} : { key: secretKey, keyId: keyIdOf(secretKey) },
    events: { pollSeconds: env.EVENTS_POLL_SECONDS },
    ...(webhook === undefined ? {} : { webhook }),
    http: env.HTTP_PORT === undefined ? {} : { port: env.HTTP_PORT },
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
  guard(config.secret, () => summary.secret);
  if (config.webhook !== undefined) guard(config.webhook, () => summary.webhook);
  Object.freeze(config.events);
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
  readonly store: { readonly url: string };
  readonly secret: { readonly key?: string; readonly keyId?: string };
  readonly events: Config['events'];
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
    secret: {
      ...(secret.key === undefined ? {} : { key: REDACTED }),
      ...(secret.keyId === undefined ? {} : { keyId: secret.keyId }),
    },
    events: { pollSeconds: config.events.pollSeconds },
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
    http: config.http.port === undefined ? {} : { port: config.http.port },
    log: { level: config.log.level },
  };
}

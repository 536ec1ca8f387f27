import { isIP } from 'node:net';
import { z } from 'zod';
import { LOG_LEVELS } from '../log/index.ts';
import { secretKeyFile, secretKeyValue } from './secret-key.ts';

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
  'DATABASE_URL',
  'REDIS_URL',
  'SECRET_KEY',
  'SECRET_KEY_FILE',
  'EVENTS_POLL_SECONDS',
  'WORKER_LEASE_SECONDS',
  'TRACK_LIMIT',
  'TRACK_REFRESH_MINUTES',
  'LINKED_REFRESH_HOURS',
  'ALERT_USER_LIMIT',
  'ALERT_GUILD_LIMIT',
  'WEBHOOK_PORT',
  'WEBHOOK_SECRET',
  'WEBHOOK_SERVICE',
  'WEBHOOK_PATH',
  'WEBHOOK_TOLERANCE_SECONDS',
  'HTTP_PORT',
  'HTTP_HOST',
  'LOG_LEVEL',
  'PROCESS_ROLE',
  'SHARD_COUNT',
  'SHARD_IDS',
] as const;

/** What one process runs: shards and the worker (the default), only shards, or only the worker. */
export const PROCESS_ROLES = ['all', 'shards', 'worker'] as const;
export type ProcessRole = (typeof PROCESS_ROLES)[number];

export type Variable = (typeof CONFIG_VARIABLES)[number];

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/;
const SANDBOX_HINT = '`npm run sandbox` starts a local stand-in and prints working values';
const DATABASE_SCHEMES = ['sqlite:', 'postgres:', 'postgresql:'];
const STORE_SCHEMES = ['sqlite:', 'redis:', 'rediss:', 'postgres:', 'postgresql:', 'memory:'];

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

const optional = <T extends z.ZodType<unknown, string>>(schema: T) => text.pipe(schema.optional());

export const environment = z
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
    DATABASE_URL: text.pipe(
      z
        .string()
        .refine((value) => DATABASE_SCHEMES.some((scheme) => value.startsWith(`${scheme}//`)), {
          error: `must start with one of ${DATABASE_SCHEMES.map((s) => `${s}//`).join(', ')}`,
        })
        .refine((value) => !value.startsWith('sqlite:') || value.length > 'sqlite://'.length, {
          error: 'must name a file after sqlite://, such as sqlite://data/killfeed.sqlite',
        })
        .default('sqlite://data/killfeed.sqlite'),
    ),
    REDIS_URL: optional(
      z.string().refine((value) => value.startsWith('redis://') || value.startsWith('rediss://'), {
        error: 'must start with redis:// or rediss://',
      }),
    ),
    SECRET_KEY: optional(secretKeyValue),
    SECRET_KEY_FILE: optional(secretKeyFile),
    EVENTS_POLL_SECONDS: text.pipe(integer(20, 60).default(30)),
    WORKER_LEASE_SECONDS: text.pipe(integer(2, 600).default(90)),
    TRACK_LIMIT: text.pipe(integer(1, 500).default(50)),
    TRACK_REFRESH_MINUTES: text.pipe(integer(1, 1440).default(5)),
    LINKED_REFRESH_HOURS: text.pipe(integer(1, 24).default(24)),
    ALERT_USER_LIMIT: text.pipe(integer(1, 100).default(10)),
    ALERT_GUILD_LIMIT: text.pipe(integer(1, 1000).default(50)),
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
    // Loopback by default: /metrics and /healthz are for the machine's own probes and scrapers.
    HTTP_HOST: text.pipe(
      z
        .string()
        .refine((value) => isIP(value) !== 0 || HOST_NAME.test(value), {
          error: 'must be an IP address (127.0.0.1, 0.0.0.0, ::) or a host name such as localhost',
        })
        .default('127.0.0.1'),
    ),
    LOG_LEVEL: text.pipe(
      z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    ),
    PROCESS_ROLE: text.pipe(
      z.enum(PROCESS_ROLES, { error: `must be one of ${PROCESS_ROLES.join(', ')}` }).default('all'),
    ),
    SHARD_COUNT: text.pipe(
      z
        .union([z.literal('auto'), integer(1, 10_000)], { error: "must be 'auto' or a whole number from 1" })
        .default('auto'),
    ),
    SHARD_IDS: optional(
      z
        .string()
        .regex(/^\d{1,5}(,\d{1,5}){0,999}$/, {
          error: 'must be shard numbers separated by commas, such as 0,1',
        })
        .transform((value) => [...new Set(value.split(',').map(Number))].sort((a, b) => a - b)),
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
      if (env.SHARD_IDS !== undefined) {
        const count = env.SHARD_COUNT;
        if (count === 'auto') {
          ctx.addIssue({
            code: 'custom',
            path: ['SHARD_IDS'],
            message: 'needs SHARD_COUNT: the machines that split a bot must agree on the number of shards',
          });
        } else if (env.SHARD_IDS.some((id) => id >= count)) {
          ctx.addIssue({
            code: 'custom',
            path: ['SHARD_IDS'],
            message: `must be below SHARD_COUNT (${count})`,
          });
        }
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

export type Environment = z.output<typeof environment>;

export function pick(
  env: Readonly<Record<string, string | undefined>>,
): Record<Variable, string | undefined> {
  const picked = {} as Record<Variable, string | undefined>;
  for (const name of CONFIG_VARIABLES) picked[name] = env[name];
  return picked;
}

import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  describeConfig,
  loadConfig,
  loadDotEnv,
  requireDiscordToken,
} from '../../src/config/index.ts';
import { CONFIG_VARIABLES } from '../../src/config/schema.ts';
import { createLogger } from '../../src/log/index.ts';

const BASE = {
  GAME_API_URL: 'http://127.0.0.1:4010',
  GAME_LEGACY_URL: 'http://127.0.0.1:4011',
  GAME_MATCHMAKER_URL: 'http://127.0.0.1:4012',
};

const DISCORD_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB';
const API_KEY = 'kr_live_0123456789abcdefghij';
const WEBHOOK_SECRET = 'whsec_9f8e7d6c5b4a39281706';
const KEY = randomBytes(32);

const dir = mkdtempSync(join(tmpdir(), 'killfeed-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function problemsOf(env: Record<string, string | undefined>): Map<string, string[]> {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const problems = new Map<string, string[]>();
    for (const { variable, reason } of (error as ConfigError).problems) {
      problems.set(variable, [...(problems.get(variable) ?? []), reason]);
    }
    return problems;
  }
  throw new Error('loadConfig accepted the environment');
}

function messageOf(env: Record<string, string | undefined>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('loadConfig defaults', () => {
  it('fills every default and omits absent optional keys', () => {
    const config = loadConfig(BASE);
    expect(describeConfig(config)).toEqual({
      discord: { apiUrl: 'https://discord.com/api' },
      game: {
        baseUrl: 'http://127.0.0.1:4010',
        legacyUrl: 'http://127.0.0.1:4011',
        matchmakerUrl: 'http://127.0.0.1:4012',
        apiKeyHeader: 'X-Developer-API-Key',
        hostname: 'krunker.io',
      },
      store: { url: 'sqlite://data/bot.sqlite' },
      database: { url: 'sqlite://data/killfeed.sqlite' },
      redis: {},
      processes: { role: 'all', shardCount: 'auto' },
      secret: {},
      events: { pollSeconds: 30, leaseSeconds: 90 },
      follow: { trackLimit: 50, trackMinutes: 5, linkedHours: 24 },
      alerts: { userLimit: 10, guildLimit: 50 },
      http: { host: '127.0.0.1' },
      log: { level: 'info' },
    });
    expect('token' in config.discord).toBe(false);
    expect('devGuildId' in config.discord).toBe(false);
    expect('apiKey' in config.game).toBe(false);
    expect('webhook' in config).toBe(false);
    expect('port' in config.http).toBe(false);
    expect(Object.keys(config.secret)).toEqual([]);
  });

  it('treats empty and blank variables as unset', () => {
    const config = loadConfig({
      ...BASE,
      DISCORD_TOKEN: '',
      LOG_LEVEL: '  ',
      EVENTS_POLL_SECONDS: '',
      HTTP_PORT: '',
    });
    expect('token' in config.discord).toBe(false);
    expect(config.log.level).toBe('info');
    expect(config.events.pollSeconds).toBe(30);
    expect('port' in config.http).toBe(false);
  });

  it('binds the ops endpoint to the loopback interface unless HTTP_HOST says otherwise', () => {
    expect(loadConfig({ ...BASE, HTTP_PORT: '8080' }).http).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(loadConfig({ ...BASE, HTTP_HOST: '  ' }).http.host).toBe('127.0.0.1');
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'localhost', 'metrics.internal']) {
      expect(loadConfig({ ...BASE, HTTP_HOST: host }).http.host).toBe(host);
    }
    for (const host of ['http://0.0.0.0', '0.0.0.0:8080', 'two words']) {
      expect(() => loadConfig({ ...BASE, HTTP_HOST: host })).toThrow(/HTTP_HOST: must be an IP address/);
    }
  });

  it('reads every variable when set', () => {
    const config = loadConfig({
      ...BASE,
      DISCORD_TOKEN,
      DISCORD_API_URL: 'http://127.0.0.1:5000/api/',
      DISCORD_DEV_GUILD_ID: '123456789012345678',
      GAME_API_KEY: API_KEY,
      GAME_API_KEY_HEADER: 'X-Key',
      GAME_HOSTNAME: 'localhost',
      STORE_URL: 'memory://',
      SECRET_KEY: KEY.toString('base64'),
      EVENTS_POLL_SECONDS: '45',
      WEBHOOK_PORT: '8443',
      WEBHOOK_SECRET,
      WEBHOOK_SERVICE: 'Krunker',
      WEBHOOK_PATH: '/hooks/game',
      WEBHOOK_TOLERANCE_SECONDS: '120',
      HTTP_PORT: '8080',
      LOG_LEVEL: 'debug',
    });
    expect(config.discord).toEqual({
      token: DISCORD_TOKEN,
      apiUrl: 'http://127.0.0.1:5000/api',
      devGuildId: '123456789012345678',
    });
    expect(config.game.apiKey).toBe(API_KEY);
    expect(config.game.apiKeyHeader).toBe('X-Key');
    expect(config.game.hostname).toBe('localhost');
    expect(config.store.url).toBe('memory://');
    expect(config.secret.key?.equals(KEY)).toBe(true);
    expect(config.events.pollSeconds).toBe(45);
    expect(config.webhook).toEqual({
      port: 8443,
      secret: WEBHOOK_SECRET,
      service: 'Krunker',
      path: '/hooks/game',
      toleranceSeconds: 120,
    });
    expect(config.http.port).toBe(8080);
    expect(config.log.level).toBe('debug');
  });

  it('ignores variables it does not know', () => {
    expect(() => loadConfig({ ...BASE, UNRELATED: 'x', PATH: '/usr/bin' })).not.toThrow();
  });

  it('strips trailing slashes from every URL', () => {
    const config = loadConfig({
      GAME_API_URL: 'https://api.example.com/',
      GAME_LEGACY_URL: 'https://legacy.example.com/v1//',
      GAME_MATCHMAKER_URL: 'https://mm.example.com',
      DISCORD_API_URL: 'https://discord.example.com/api/',
    });
    expect(config.game.baseUrl).toBe('https://api.example.com');
    expect(config.game.legacyUrl).toBe('https://legacy.example.com/v1');
    expect(config.game.matchmakerUrl).toBe('https://mm.example.com');
    expect(config.discord.apiUrl).toBe('https://discord.example.com/api');
  });

  it('freezes the result', () => {
    const config = loadConfig(BASE);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.game)).toBe(true);
    expect(Object.isFrozen(config.events)).toBe(true);
  });
});

describe('loadConfig failures', () => {
  const cases: [variable: string, value: string, reason: RegExp][] = [
    ['DISCORD_TOKEN', 'Bot abc.def.ghi', /without the 'Bot ' prefix/],
    ['DISCORD_TOKEN', 'abc def', /without spaces/],
    ['DISCORD_API_URL', 'not a url', /http\(s\) URL/],
    ['DISCORD_API_URL', 'ftp://discord.com/api', /http:\/\/ or https:\/\//],
    ['DISCORD_API_URL', 'https://discord.com/api?v=10', /query string/],
    ['DISCORD_DEV_GUILD_ID', '1234', /17 to 20 digits/],
    ['DISCORD_DEV_GUILD_ID', '12345678901234567x', /17 to 20 digits/],
    ['GAME_API_URL', 'api.example.com', /http\(s\) URL/],
    ['GAME_LEGACY_URL', 'ws://legacy.example.com', /http:\/\/ or https:\/\//],
    ['GAME_MATCHMAKER_URL', 'https://user:pw@mm.example.com', /credentials/],
    ['GAME_API_KEY', 'abc_0123456789', /must start with kr_/],
    ['GAME_API_KEY', 'kr_01234 56789', /without spaces/],
    ['GAME_API_KEY_HEADER', 'X Key', /HTTP header name/],
    ['GAME_HOSTNAME', 'https://krunker.io', /host name/],
    ['STORE_URL', 'mysql://db/bot', /must start with one of sqlite:\/\//],
    ['STORE_URL', 'sqlite://', /must name a file/],
    ['SECRET_KEY', 'too-short', /exactly 32 bytes/],
    ['SECRET_KEY_FILE', '/nonexistent/killfeed/secret.key', /cannot be read \(ENOENT\)/],
    ['EVENTS_POLL_SECONDS', '19', /from 20 to 60/],
    ['EVENTS_POLL_SECONDS', '61', /from 20 to 60/],
    ['EVENTS_POLL_SECONDS', '30.5', /whole number/],
    ['WEBHOOK_PORT', '0', /from 1 to 65535/],
    ['WEBHOOK_PORT', '65536', /from 1 to 65535/],
    ['WEBHOOK_SECRET', 'short', /at least 8 characters/],
    ['WEBHOOK_SERVICE', 'Krunker Hub', /usable in a header/],
    ['WEBHOOK_PATH', 'webhook', /starting with \//],
    ['WEBHOOK_TOLERANCE_SECONDS', '0', /from 1 to 3600/],
    ['HTTP_PORT', 'eighty', /whole number from 1 to 65535/],
    ['LOG_LEVEL', 'verbose', /one of fatal, error, warn, info, debug, trace, silent/],
  ];

  it.each(cases)('%s=%j fails with its reason', (variable, value, reason) => {
    const env: Record<string, string | undefined> = { ...BASE, [variable]: value };
    // The webhook variables come as a group; complete it so that only the tested one fails.
    if (variable.startsWith('WEBHOOK_')) {
      env.WEBHOOK_PORT ??= '8443';
      env.WEBHOOK_SECRET ??= WEBHOOK_SECRET;
      env.WEBHOOK_SERVICE ??= 'Krunker';
    }
    const problems = problemsOf(env);
    expect([...problems.keys()]).toEqual([variable]);
    expect(problems.get(variable)?.join('\n')).toMatch(reason);
  });

  it.each(['GAME_API_URL', 'GAME_LEGACY_URL', 'GAME_MATCHMAKER_URL'])(
    '%s is required and the reason points to the sandbox',
    (variable) => {
      const problems = problemsOf({ ...BASE, [variable]: undefined });
      expect([...problems.keys()]).toEqual([variable]);
      expect(problems.get(variable)?.[0]).toMatch(/is required: set it .*npm run sandbox/);
    },
  );

  it('lists every failing variable together, one per line', () => {
    const message = messageOf({
      GAME_API_URL: 'nope',
      EVENTS_POLL_SECONDS: '5',
      LOG_LEVEL: 'loud',
      HTTP_PORT: '-1',
    });
    const lines = message.split('\n');
    expect(lines[0]).toBe('Invalid configuration (6 problems):');
    expect(lines.slice(1).map((line) => line.trim().split(':')[0])).toEqual([
      'GAME_API_URL',
      'GAME_LEGACY_URL',
      'GAME_MATCHMAKER_URL',
      'EVENTS_POLL_SECONDS',
      'HTTP_PORT',
      'LOG_LEVEL',
    ]);
  });

  it('reports cross-variable problems beside field problems', () => {
    const problems = problemsOf({
      ...BASE,
      LOG_LEVEL: 'loud',
      SECRET_KEY: KEY.toString('hex'),
      SECRET_KEY_FILE: join(dir, 'missing.key'),
      WEBHOOK_PORT: 'abc',
    });
    expect(problems.get('LOG_LEVEL')).toHaveLength(1);
    expect(problems.get('SECRET_KEY_FILE')?.join('\n')).toMatch(/together with SECRET_KEY/);
    expect(problems.get('WEBHOOK_PORT')?.[0]).toMatch(/whole number/);
    expect(problems.get('WEBHOOK_SECRET')?.[0]).toMatch(/required when WEBHOOK_PORT is set/);
    expect(problems.get('WEBHOOK_SERVICE')?.[0]).toMatch(/required when WEBHOOK_PORT is set/);
  });
});

describe('secret key', () => {
  const keyId = createHash('sha256').update(KEY).digest('hex').slice(0, 8);

  it('decodes base64, URL-safe base64 and hex to the same 32 bytes and a stable id', () => {
    for (const encoded of [KEY.toString('base64'), KEY.toString('base64url'), KEY.toString('hex')]) {
      const config = loadConfig({ ...BASE, SECRET_KEY: encoded });
      expect(config.secret.key?.equals(KEY)).toBe(true);
      expect(config.secret.keyId).toBe(keyId);
    }
    expect(keyId).toMatch(/^[0-9a-f]{8}$/);
  });

  it('reads SECRET_KEY_FILE and trims its content', () => {
    const file = join(dir, 'secret.key');
    writeFileSync(file, `\n  ${KEY.toString('base64')}  \n`);
    const config = loadConfig({ ...BASE, SECRET_KEY_FILE: file });
    expect(config.secret.key?.equals(KEY)).toBe(true);
    expect(config.secret.keyId).toBe(keyId);
  });

  it('refuses a file that does not hold a key', () => {
    const file = join(dir, 'bad.key');
    writeFileSync(file, randomBytes(16).toString('base64'));
    expect(problemsOf({ ...BASE, SECRET_KEY_FILE: file }).get('SECRET_KEY_FILE')?.[0]).toMatch(
      /does not hold exactly 32 bytes/,
    );
  });

  it('refuses both SECRET_KEY and SECRET_KEY_FILE at once', () => {
    const file = join(dir, 'both.key');
    writeFileSync(file, KEY.toString('hex'));
    const problems = problemsOf({ ...BASE, SECRET_KEY: KEY.toString('base64'), SECRET_KEY_FILE: file });
    expect([...problems.keys()]).toEqual(['SECRET_KEY_FILE']);
    expect(problems.get('SECRET_KEY_FILE')?.[0]).toMatch(/cannot be set together with SECRET_KEY/);
  });

  it.each([
    ['16 bytes of base64', randomBytes(16).toString('base64')],
    ['33 bytes of base64', randomBytes(33).toString('base64')],
    ['62 hex digits', randomBytes(31).toString('hex')],
    ['not base64 at all', '!!!!not-a-key!!!!'],
  ])('refuses %s', (_label, value) => {
    expect(problemsOf({ ...BASE, SECRET_KEY: value }).get('SECRET_KEY')?.[0]).toMatch(/exactly 32 bytes/);
  });
});

describe('webhook variables', () => {
  it('leaves webhook out when none is set, even with WEBHOOK_PATH', () => {
    expect('webhook' in loadConfig({ ...BASE, WEBHOOK_PATH: '/hook' })).toBe(false);
  });

  it('builds webhook with its defaults when all three are set', () => {
    const config = loadConfig({ ...BASE, WEBHOOK_PORT: '9000', WEBHOOK_SECRET, WEBHOOK_SERVICE: 'Krunker' });
    expect(config.webhook).toEqual({
      port: 9000,
      secret: WEBHOOK_SECRET,
      service: 'Krunker',
      path: '/webhook',
      toleranceSeconds: 300,
    });
  });

  it.each([
    [{ WEBHOOK_PORT: '9000' }, ['WEBHOOK_SECRET', 'WEBHOOK_SERVICE']],
    [{ WEBHOOK_SECRET }, ['WEBHOOK_PORT', 'WEBHOOK_SERVICE']],
    [{ WEBHOOK_SERVICE: 'Krunker', WEBHOOK_SECRET }, ['WEBHOOK_PORT']],
  ])('refuses a partial set %j, naming the missing ones', (partial, missing) => {
    const problems = problemsOf({ ...BASE, ...partial });
    expect([...problems.keys()]).toEqual(missing);
    for (const name of missing) expect(problems.get(name)?.[0]).toMatch(/set all of .* or none/);
  });
});

describe('secrets never leak', () => {
  const secrets = [DISCORD_TOKEN, API_KEY, WEBHOOK_SECRET, KEY.toString('base64'), 'S3cretPassw0rd'];

  it('keeps invalid secret values out of error messages', () => {
    const message = messageOf({
      ...BASE,
      DISCORD_TOKEN: `Bot ${DISCORD_TOKEN}`,
      GAME_API_KEY: `xx_${API_KEY}`,
      WEBHOOK_SECRET: 'Sh0rt!',
      WEBHOOK_PORT: '9000',
      WEBHOOK_SERVICE: 'Krunker',
      SECRET_KEY: `${KEY.toString('base64')}AAAA`,
      STORE_URL: 'mysql://admin:S3cretPassw0rd@db.internal/bot',
    });
    expect(message.split('\n')).toHaveLength(6);
    for (const secret of [...secrets, 'Sh0rt!']) expect(message).not.toContain(secret);
  });

  it('prints no secret through JSON, util.inspect or describeConfig', () => {
    const config = loadConfig({
      ...BASE,
      DISCORD_TOKEN,
      GAME_API_KEY: API_KEY,
      SECRET_KEY: KEY.toString('base64'),
      WEBHOOK_PORT: '9000',
      WEBHOOK_SECRET,
      WEBHOOK_SERVICE: 'Krunker',
      STORE_URL: 'redis://bot:S3cretPassw0rd@127.0.0.1:6379',
    });
    const outputs = [
      JSON.stringify(config),
      inspect(config, { depth: 10 }),
      inspect(config.discord),
      inspect(config.game),
      inspect(config.secret),
      inspect(config.webhook),
      JSON.stringify(config.store),
      JSON.stringify(describeConfig(config)),
    ];
    for (const output of outputs) {
      for (const secret of [...secrets, KEY.toString('hex')]) expect(output).not.toContain(secret);
    }
    const summary = describeConfig(config);
    expect(summary.discord.token).toBe('[redacted]');
    expect(summary.game.apiKey).toBe('kr_live[redacted]');
    expect(summary.secret).toEqual({ key: '[redacted]', keyId: config.secret.keyId });
    expect(summary.webhook?.secret).toBe('[redacted]');
    expect(summary.store.url).toBe('redis://bot:[redacted]@127.0.0.1:6379');
  });

  it('registers its secrets with the log redaction', () => {
    loadConfig({
      ...BASE,
      DISCORD_TOKEN: 'opaque-discord-token-value',
      GAME_API_KEY: 'kr_z',
      WEBHOOK_PORT: '9000',
      WEBHOOK_SECRET: 'opaque-webhook-secret',
      WEBHOOK_SERVICE: 'Krunker',
      STORE_URL: 'postgres://bot:opaque-db-password@127.0.0.1/bot',
    });
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => lines.push(line) } });
    logger.info(
      'token opaque-discord-token-value, secret opaque-webhook-secret, password opaque-db-password',
    );
    expect(lines.join('')).toContain('token [redacted], secret [redacted], password [redacted]');
  });
});

describe('requireDiscordToken', () => {
  it('returns the token when set', () => {
    expect(requireDiscordToken(loadConfig({ ...BASE, DISCORD_TOKEN }))).toBe(DISCORD_TOKEN);
  });

  it('throws a ConfigError naming DISCORD_TOKEN when unset', () => {
    const config = loadConfig(BASE);
    expect(() => requireDiscordToken(config)).toThrow(ConfigError);
    expect(() => requireDiscordToken(config)).toThrow(/DISCORD_TOKEN: is not set: set DISCORD_TOKEN to/);
  });
});

describe('loadDotEnv', () => {
  it('returns false when the file is missing', () => {
    expect(loadDotEnv(join(dir, 'missing.env'))).toBe(false);
  });

  it('loads the file without overriding variables already set', () => {
    const suffix = randomBytes(4).toString('hex').toUpperCase();
    const fresh = `KILLFEED_TEST_FRESH_${suffix}`;
    const kept = `KILLFEED_TEST_KEPT_${suffix}`;
    const file = join(dir, 'test.env');
    writeFileSync(file, `${fresh}=from-file\n${kept}=from-file\n`);
    process.env[kept] = 'from-environment';
    try {
      expect(loadDotEnv(file)).toBe(true);
      expect(process.env[fresh]).toBe('from-file');
      expect(process.env[kept]).toBe('from-environment');
    } finally {
      Reflect.deleteProperty(process.env, fresh);
      Reflect.deleteProperty(process.env, kept);
    }
  });

  it('documents every variable in .env.example', async () => {
    const { readFile } = await import('node:fs/promises');
    const example = await readFile(new URL('../../.env.example', import.meta.url), 'utf8');
    for (const variable of CONFIG_VARIABLES) expect(example).toMatch(new RegExp(`^#? ?${variable}=`, 'm'));
  });
});

describe('processes, database and shared limits', () => {
  it('reads the role, the shard split and the URLs, and hides their passwords', () => {
    const config = loadConfig({
      ...BASE,
      PROCESS_ROLE: 'shards',
      SHARD_COUNT: '4',
      SHARD_IDS: '3,1,1',
      DATABASE_URL: 'postgres://bot:db-secret-pw@127.0.0.1/bot',
      REDIS_URL: 'redis://:redis-secret-pw@127.0.0.1:6379',
    });
    expect(config.processes).toEqual({ role: 'shards', shardCount: 4, shardIds: [1, 3] });
    const printed = JSON.stringify(config);
    expect(printed).not.toContain('db-secret-pw');
    expect(printed).not.toContain('redis-secret-pw');
    expect(printed).toContain('127.0.0.1/bot');
  });

  it('refuses shard ids without a count, past the count, an unknown role and a non-SQL database', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig({ ...BASE, ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems.map((p) => p.variable);
      }
    };
    expect(problems({ SHARD_IDS: '0' })).toEqual(['SHARD_IDS']);
    expect(problems({ SHARD_COUNT: '2', SHARD_IDS: '2' })).toEqual(['SHARD_IDS']);
    expect(problems({ PROCESS_ROLE: 'leader' })).toEqual(['PROCESS_ROLE']);
    expect(problems({ DATABASE_URL: 'redis://127.0.0.1' })).toEqual(['DATABASE_URL']);
    expect(problems({ SHARD_COUNT: '0' })).toEqual(['SHARD_COUNT']);
  });
});

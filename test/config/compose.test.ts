import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { keyIdOf } from '../../src/config/secret-key.ts';
import { loadConfig } from '../../src/config/index.ts';

/**
 * compose.yaml read as `docker compose up` reads it (no Docker engine runs here): each bot service's
 * environment is its `env_file` (.env) with its `environment` entries over it, `${…}` filled from .env,
 * and the secret mounted at /run/secrets/<name>. The bot's configuration must load from it whatever .env
 * the README describes, the single-process one (with SECRET_KEY) included.
 */
interface Service {
  readonly env_file?: string | readonly string[];
  readonly environment?: Readonly<Record<string, string | number | boolean | null>>;
  readonly secrets?: readonly string[];
}

const ROOT = new URL('../../', import.meta.url);
const compose = parse(readFileSync(new URL('compose.yaml', ROOT), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
};
const bots = Object.entries(compose.services).filter(([, service]) => service.env_file !== undefined);

const dir = mkdtempSync(join(tmpdir(), 'killfeed-compose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Compose's interpolation of `$$`, `${NAME}`, `${NAME:-default}` and `${NAME:?error}`. */
function interpolate(value: string, variables: Readonly<Record<string, string | undefined>>): string {
  return value.replace(
    /\$\$|\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
    (match, name?: string, kind?: string, rest = '') => {
      if (name === undefined) return '$';
      const found = variables[name];
      if (found !== undefined && found !== '') return found;
      if (kind === '?') throw new Error(`compose refuses to start: ${name}: ${String(rest)}`);
      return kind === '-' ? String(rest) : '';
    },
  );
}

/** The environment the container of `service` gets, with `.env` holding `dotenv`. */
function containerEnvironment(service: Service, dotenv: string, secretFile: string): Record<string, string> {
  const fromFile = parseEnv(dotenv);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(fromFile)) if (value !== undefined) env[name] = value;
  for (const [name, raw] of Object.entries(service.environment ?? {})) {
    if (raw === null) continue;
    env[name] = interpolate(String(raw), fromFile);
  }
  // Every secret is mounted where its name says; the test's key file stands in for the mount.
  for (const [name, value] of Object.entries(env)) {
    const secret = /^\/run\/secrets\/(.+)$/.exec(value)?.[1];
    if (secret !== undefined) {
      expect(service.secrets).toContain(secret);
      expect(compose.secrets[secret]).toBeDefined();
      env[name] = secretFile;
    }
  }
  return env;
}

const game = [
  'GAME_API_URL=http://127.0.0.1:7700',
  'GAME_LEGACY_URL=http://127.0.0.1:7701',
  'GAME_MATCHMAKER_URL=http://127.0.0.1:7702',
];
const fileKey = randomBytes(32);
const envKey = randomBytes(32);
const keyFile = join(dir, 'killfeed_key');
writeFileSync(keyFile, `${fileKey.toString('base64')}\n`);

/** The .env files the README and .env.example describe, each with compose's POSTGRES_PASSWORD. */
const dotenvs: Record<string, string> = {
  'the minimal one (token and game addresses)': ['DISCORD_TOKEN=abc.def.ghi', ...game].join('\n'),
  'the single-process one, with its own SECRET_KEY, storage and port': [
    'DISCORD_TOKEN=abc.def.ghi',
    ...game,
    `SECRET_KEY=${envKey.toString('base64')}`,
    'DATABASE_URL=sqlite://data/killfeed.sqlite',
    'STORE_URL=sqlite://data/bot.sqlite',
    'HTTP_PORT=9000',
    'PROCESS_ROLE=all',
  ].join('\n'),
};

describe('compose.yaml over the .env the README describes', () => {
  it('has the bot services, each reading .env', () => {
    expect(bots.map(([name]) => name).sort()).toEqual(['shards-0', 'shards-1', 'worker']);
  });

  for (const [what, body] of Object.entries(dotenvs)) {
    it(`loads the configuration of every bot service with ${what}`, () => {
      const dotenv = `${body}\nPOSTGRES_PASSWORD=secret1\n`;
      for (const [name, service] of bots) {
        const config = loadConfig(containerEnvironment(service, dotenv, keyFile));
        // The compose file's lines won: the key from the secret, PostgreSQL, Redis, the image's port.
        expect(config.secret.keyId, name).toBe(keyIdOf(fileKey));
        expect(config.database.url).toBe('postgres://killfeed:secret1@postgres:5432/killfeed');
        expect(config.store.url).toBe('redis://redis:6379');
        expect(config.http.port).toBe(8080);
        expect(config.processes.role).toBe(name === 'worker' ? 'worker' : 'shards');
      }
    });
  }

  it('still refuses to start without POSTGRES_PASSWORD, as compose does', () => {
    const [, service] = bots[0]!;
    expect(() => containerEnvironment(service, game.join('\n'), keyFile)).toThrow(/POSTGRES_PASSWORD/);
  });
});

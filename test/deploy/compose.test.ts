import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/index.ts';
import { CONFIG_VARIABLES } from '../../src/config/schema.ts';

/**
 * compose.yaml, read as Docker Compose reads it (YAML merge keys included), since no Docker engine runs
 * here: the bot services set only variables the bot knows, their environment is a valid configuration,
 * the shards split the bot between them, one worker runs, and everything waits for PostgreSQL and Redis.
 */
interface Service {
  readonly build?: unknown;
  readonly image?: string;
  readonly environment?: Record<string, unknown> | string[];
  readonly depends_on?: Record<string, unknown> | string[];
  readonly secrets?: Array<string | { source: string; target?: string }>;
}

interface Compose {
  readonly services: Record<string, Service>;
  readonly secrets?: Record<string, { file?: string }>;
}

const ROOT = new URL('../../', import.meta.url);
const text = readFileSync(new URL('compose.yaml', ROOT), 'utf8');
const compose = parse(text, { merge: true }) as Compose;
const services = Object.entries(compose.services);
const INFRASTRUCTURE = ['postgres', 'redis'];
const bots = services.filter(([name]) => !INFRASTRUCTURE.includes(name));

function environmentOf(service: Service): Record<string, string> {
  const raw = service.environment ?? {};
  const entries = Array.isArray(raw)
    ? raw.map((line) => {
        const at = line.indexOf('=');
        return at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 1)];
      })
    : Object.entries(raw).map(([name, value]) => [name, String(value)]);
  return Object.fromEntries(entries) as Record<string, string>;
}

function dependenciesOf(service: Service): string[] {
  const raw = service.depends_on ?? [];
  return Array.isArray(raw) ? raw : Object.keys(raw);
}

/** `${NAME}`, `${NAME:-default}`, `${NAME:?message}` as Compose fills them, from `values`. */
function interpolate(value: string, values: Record<string, string>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}/g, (_whole, name: string) => {
    const found = values[name];
    if (found === undefined) throw new Error(`compose.yaml uses \${${name}} without a test value`);
    return found;
  });
}

const dir = mkdtempSync(join(tmpdir(), 'killfeed-compose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compose.yaml', () => {
  it('has PostgreSQL, Redis and bot services built from the Dockerfile', () => {
    expect(compose.services.postgres).toBeDefined();
    expect(compose.services.redis).toBeDefined();
    expect(bots.length).toBeGreaterThanOrEqual(3);
    for (const [name, service] of bots) {
      expect(service.build, name).toBe('.');
      expect(service.image, name).toBe(bots[0]?.[1].image);
    }
  });

  it('sets on the bot services only variables the bot knows', () => {
    const known: readonly string[] = CONFIG_VARIABLES;
    for (const [name, service] of bots) {
      const unknown = Object.keys(environmentOf(service)).filter((variable) => !known.includes(variable));
      expect(unknown, name).toEqual([]);
    }
  });

  it('gives every bot service an environment the configuration accepts', () => {
    const keyFile = join(dir, 'killfeed_key');
    writeFileSync(keyFile, randomBytes(32).toString('base64'));
    for (const [name, service] of bots) {
      const env = environmentOf(service);
      const secretTargets = (service.secrets ?? []).map((secret) =>
        typeof secret === 'string'
          ? `/run/secrets/${secret}`
          : (secret.target ?? `/run/secrets/${secret.source}`),
      );
      // The key file is one of the service's mounted secrets; here a real file stands in for it.
      expect(secretTargets, name).toContain(env.SECRET_KEY_FILE);
      const filled = Object.fromEntries(
        Object.entries(env).map(([variable, value]) => [
          variable,
          variable === 'SECRET_KEY_FILE' ? keyFile : interpolate(value, { POSTGRES_PASSWORD: 'Passw0rd' }),
        ]),
      );
      // What .env brings (env_file): the token and the game API.
      const config = loadConfig({
        DISCORD_TOKEN: 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB',
        GAME_API_URL: 'https://api.example.com',
        GAME_LEGACY_URL: 'https://legacy.example.com',
        GAME_MATCHMAKER_URL: 'https://matchmaker.example.com',
        ...filled,
      });
      expect(new URL(config.database.url).hostname, name).toBe('postgres');
      expect(new URL(config.store.url).hostname, name).toBe('redis');
      expect(config.redis.url && new URL(config.redis.url).hostname, name).toBe('redis');
      expect(config.secret.key, name).toBeDefined();
      // The image's health check asks /healthz on HTTP_PORT.
      expect(config.http.port, name).toBeDefined();
    }
  });

  it('mounts the key from a secret file, not from the environment', () => {
    expect(compose.secrets?.killfeed_key?.file).toBeDefined();
    // Set empty, so that a SECRET_KEY from .env (env_file) is overridden: the config reads '' as unset.
    for (const [name, service] of bots) expect(environmentOf(service).SECRET_KEY ?? '', name).toBe('');
  });

  it('runs shard processes whose SHARD_IDS split 0..SHARD_COUNT-1 between them, and exactly one worker', () => {
    const roles = bots.map(([name, service]) => [name, environmentOf(service)] as const);
    expect(roles.filter(([, env]) => !['shards', 'worker'].includes(env.PROCESS_ROLE ?? ''))).toEqual([]);
    const shards = roles.filter(([, env]) => env.PROCESS_ROLE === 'shards');
    expect(shards).toHaveLength(2);
    const counts = new Set(shards.map(([, env]) => env.SHARD_COUNT));
    expect(counts.size).toBe(1);
    const count = Number([...counts][0]);
    const ids = shards.flatMap(([, env]) => (env.SHARD_IDS ?? '').split(',').map(Number));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, id) => id));
    expect(roles.filter(([, env]) => env.PROCESS_ROLE === 'worker')).toHaveLength(1);
  });

  it('starts every bot service after PostgreSQL and Redis', () => {
    for (const [name, service] of bots) {
      expect(dependenciesOf(service), name).toEqual(expect.arrayContaining(INFRASTRUCTURE));
    }
  });
});

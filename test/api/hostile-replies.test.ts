import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CacheBackend } from '../../src/api/cache.ts';
import { TierClient } from '../../src/api/client.ts';
import { ReplyTooLargeError, UpstreamError } from '../../src/api/errors.ts';

// A game API stand-in that answers what a hostile or broken upstream could: 50 MB, 100,000 levels deep.
const HUGE = 50 * 1024 * 1024;
const DEEP = 100_000;
const profile = { player_id: 7, player_name: 'Ada', kills: 3 };

let server: Server;
let origin: string;
const hits = new Map<string, number>();
let streamed: Promise<number> = Promise.resolve(0);

function envelope(data: string): string {
  return `{"data":${data},"error":null}`;
}

/** A valid profile whose unknown field holds `total` bytes of text, written with back-pressure. */
function streamHuge(response: ServerResponse): Promise<number> {
  const head = Buffer.from(`{"data":{"player_id":7,"player_name":"Ada","blob":"`);
  const tail = Buffer.from(`"},"error":null}`);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let written = 0;
  response.setHeader('content-type', 'application/json');
  response.write(head);
  return new Promise((resolve) => {
    response.on('close', () => resolve(written));
    const pump = (): void => {
      while (written < HUGE && !response.destroyed) {
        written += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      if (written >= HUGE) response.end(tail);
    };
    pump();
  });
}

function deepProfile(withLongNumber: boolean): string {
  const nested = `${'['.repeat(DEEP)}${withLongNumber ? '9007199254740993' : '1'}${']'.repeat(DEEP)}`;
  return envelope(`{"player_id":7,"player_name":"Ada","junk_field":${nested}}`);
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/api/player/huge') return void (streamed = streamHuge(response));
    response.setHeader('content-type', 'application/json');
    if (path === '/api/player/deep') return void response.end(deepProfile(false));
    if (path === '/api/player/deeplong') return void response.end(deepProfile(true));
    if (path === '/api/player/deep500') {
      response.statusCode = 502;
      return void response.end(`{"error":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`);
    }
    response.end(envelope(JSON.stringify({ ...profile, x_unknown: { nested: [1, 2, 3] } })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const clients: TierClient[] = [];
afterEach(async () => {
  hits.clear();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** Serialises like the real stores do (JSON text), which is where deep nesting overflowed the stack. */
function jsonBackend(): CacheBackend & { readonly texts: Map<string, string> } {
  const texts = new Map<string, string>();
  return {
    texts,
    get: async (key) => {
      const text = texts.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as unknown);
    },
    set: async (key, value) => void texts.set(key, JSON.stringify(value)),
  };
}

function client(options: Partial<ConstructorParameters<typeof TierClient>[0]> = {}): TierClient {
  const made = new TierClient({
    urls: { base: origin, legacy: origin, matchmaker: origin },
    apiKey: 'kr_test',
    retryPolicy: { serverErrorDelayMs: 1, jitterMs: 0, random: () => 0 },
    ...options,
  });
  clients.push(made);
  return made;
}

describe('hostile upstream replies', () => {
  it('refuses a 50 MB reply with a typed upstream error, without reading it all', async () => {
    const error = await client({ cache: jsonBackend() })
      .api.player({ playerName: 'huge' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplyTooLargeError);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({
      kind: 'upstream',
      measure: 'bytes',
      limit: 4 * 1024 * 1024,
      route: 'player',
    });
    expect(await streamed).toBeLessThan(HUGE / 2);
    // Not an accident worth retrying: one request.
    expect(hits.get('/api/player/huge')).toBe(1);
  });

  it('honours a configured size limit', async () => {
    const error = await client({ maxReplyBytes: 64 })
      .api.player({ playerName: 'fine' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplyTooLargeError);
    expect(error).toMatchObject({ measure: 'bytes', limit: 64 });
  });

  it.each([
    ['deep', 'the native parser'],
    ['deeplong', 'the unsafe-integer path (a 16-digit number)'],
  ])('refuses a reply nested 100,000 deep (%s: %s) with the typed error', async (name) => {
    const backend = jsonBackend();
    const error = await client({ cache: backend })
      .api.player({ playerName: name })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplyTooLargeError);
    expect(error).toMatchObject({ kind: 'upstream', measure: 'depth', route: 'player' });
    expect(backend.texts.size).toBe(0);
  });

  it('still reports an error status whose body nests too deep as that status', async () => {
    const error = await client()
      .api.player({ playerName: 'deep500' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).not.toBeInstanceOf(ReplyTooLargeError);
    expect(error).toMatchObject({ status: 502 });
  });

  it('caches only the declared fields of a reply', async () => {
    const backend = jsonBackend();
    const reply = await client({ cache: backend }).api.player({ playerName: 'fine' });
    expect(reply).toEqual(profile);
    expect([...backend.texts.values()].join('')).not.toContain('x_unknown');
  });
});

describe('a cache store that fails', () => {
  const broken = (failGet: boolean): CacheBackend => ({
    get: async () => {
      if (failGet) throw new Error('ECONNREFUSED');
      return undefined;
    },
    set: async () => {
      throw new Error('SQLITE_READONLY: attempt to write a readonly database');
    },
  });

  it.each([
    ['writes fail', false],
    ['reads and writes fail', true],
  ])('returns the fetched value when %s, and logs it once per burst', async (_, failGet) => {
    const logger = { debug: vi.fn(), warn: vi.fn() };
    const api = client({ cache: broken(failGet), logger }).api;
    expect(await api.player({ playerName: 'fine' })).toEqual(profile);
    expect(await api.player({ playerName: 'other' })).toEqual(profile);
    expect(await api.player({ playerName: 'third' }, { fresh: true })).toEqual(profile);
    const storeWarnings = logger.warn.mock.calls.filter(([, message]) => message === 'cache store failed');
    expect(storeWarnings.map(([fields]) => (fields as { operation: string }).operation)).toEqual(
      failGet ? ['read', 'write'] : ['write'],
    );
  });
});

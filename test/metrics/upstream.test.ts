import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/api/auth.ts';
import { TierClient } from '../../src/api/client.ts';
import { NotFoundError, RateLimitedError, UpstreamError } from '../../src/api/errors.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { createMetrics, type Metrics } from '../../src/metrics/index.ts';
import { labelValues, parsePrometheus, valueOf } from '../support/prometheus.ts';

/**
 * The tier client against the game API sandbox tells the metrics each request's route and status, the
 * 429s, and the budget its replies describe for the process key. Labels are route names from the routes
 * table: the player names in the URLs never appear.
 */
let sandbox: Sandbox;
const clients: TierClient[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    rateLimit: { limit: 1_000, windowMs: 60_000 },
    eventsRateLimit: { limit: 6, windowMs: 60_000 },
  });
});

afterEach(async () => {
  sandbox.faults.clear();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await sandbox.close();
});

function setup(): {
  client: TierClient;
  metrics: Metrics;
  read: () => Promise<ReturnType<typeof parsePrometheus>>;
} {
  const metrics = createMetrics({ defaultMetrics: false });
  const client = new TierClient({
    urls: sandbox.urls,
    apiKey: sandbox.keys.default,
    retryPolicy: { serverErrorDelayMs: 10, jitterMs: 10, random: () => 0 },
    metrics,
  });
  clients.push(client);
  return { client, metrics, read: async () => parsePrometheus(await metrics.text()) };
}

const playerPath = /^\/api\/player\//;

describe('upstream calls', () => {
  it('count by route name and status, never by URL', async () => {
    const { client, metrics, read } = setup();
    const known = sandbox.world.samples.player;
    const unknown = 'Nobody_By_This_Name_42';
    await client.api.player({ playerName: known }, { fresh: true });
    await client.api.player({ playerName: known }, { fresh: true });
    await expect(client.api.player({ playerName: unknown })).rejects.toBeInstanceOf(NotFoundError);
    await client.api.clan({ clanName: sandbox.world.samples.clan });
    const text = await read();
    expect(valueOf(text, 'killfeed_upstream_requests_total', { route: 'player', status: '200' })).toBe(2);
    expect(valueOf(text, 'killfeed_upstream_requests_total', { route: 'player', status: '404' })).toBe(1);
    expect(valueOf(text, 'killfeed_upstream_requests_total', { route: 'clan', status: '200' })).toBe(1);
    const all = text.samples.filter((s) => s.name === 'killfeed_upstream_requests_total');
    expect(all.reduce((sum, s) => sum + s.value, 0)).toBe(client.upstreamCalls);
    const raw = await metrics.text();
    for (const secret of [
      known,
      unknown,
      sandbox.world.samples.clan,
      sandbox.keys.default,
      fingerprint(sandbox.keys.default),
    ]) {
      expect(raw).not.toContain(secret);
    }
    expect(labelValues(text).every((value) => /^[a-zA-Z0-9_]+$/.test(value))).toBe(true);
  });

  it('count a 429 received, apart from the requests', async () => {
    const { client, read } = setup();
    sandbox.faults.inject({ match: playerPath, kind: 'rateLimit', retryAfterSec: 45 });
    await expect(client.api.player({ playerName: sandbox.world.samples.player })).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    const text = await read();
    expect(valueOf(text, 'killfeed_upstream_requests_total', { route: 'player', status: '429' })).toBe(1);
    expect(valueOf(text, 'killfeed_upstream_rate_limited_total', { route: 'player' })).toBe(1);
    // The refusal described an empty window: the budget reads 0 until it resets.
    expect(valueOf(text, 'killfeed_api_budget_remaining', { window: 'general' })).toBe(0);
  });

  it('count a request that got no reply by why', async () => {
    const { client, read } = setup();
    sandbox.faults.inject({ match: playerPath, kind: 'reset' });
    await expect(client.api.player({ playerName: sandbox.world.samples.player })).rejects.toBeInstanceOf(
      UpstreamError,
    );
    const text = await read();
    expect(valueOf(text, 'killfeed_upstream_requests_total', { route: 'player', status: 'network' })).toBe(
      client.upstreamCalls,
    );
  });
});

describe('the budget left', () => {
  it('follows the replies to the process key, per window, and ignores other keys', async () => {
    const { client, read } = setup();
    await client.api.player({ playerName: sandbox.world.samples.player }, { fresh: true });
    const first = valueOf(await read(), 'killfeed_api_budget_remaining', { window: 'general' })!;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(1_000);
    expect(valueOf(await read(), 'killfeed_api_budget_limit', { window: 'general' })).toBe(1_000);

    await client.api.player({ playerName: sandbox.world.samples.player }, { fresh: true });
    expect(valueOf(await read(), 'killfeed_api_budget_remaining', { window: 'general' })).toBe(first - 1);

    // A guild's own key has a budget of its own: not the process key's.
    await client.api.player(
      { playerName: sandbox.world.samples.player },
      { fresh: true, apiKey: sandbox.keys.kpd },
    );
    expect(valueOf(await read(), 'killfeed_api_budget_remaining', { window: 'general' })).toBe(first - 1);

    // The events route's own window (6 a minute) shows under its own name.
    await client.api.events({});
    const text = await read();
    expect(valueOf(text, 'killfeed_api_budget_limit', { window: 'events' })).toBe(6);
    expect(valueOf(text, 'killfeed_api_budget_remaining', { window: 'events' })).toBe(5);
  });
});

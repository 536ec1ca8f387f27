import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMetrics,
  startOpsServer,
  type OpsServer,
  type OpsServerOptions,
} from '../../src/metrics/index.ts';
import { parsePrometheus, valueOf } from '../support/prometheus.ts';

/** The ops endpoint: `/healthz` and `/metrics` over real HTTP on 127.0.0.1. */
const servers: OpsServer[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Partial<OpsServerOptions> = {}) {
  const server = await startOpsServer({
    port: 0,
    host: '127.0.0.1',
    health: () => ({ ready: true, body: { status: 'ok' } }),
    ...options,
  });
  servers.push(server);
  const get = (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${server.port}${path}`, init);
  return { server, get };
}

describe('GET /healthz', () => {
  it('answers 200 with the body when ready, 503 when not, 503 when the check itself fails', async () => {
    let ready = true;
    let fail = false;
    const { get } = await start({
      health: () => {
        if (fail) throw new Error('boom');
        return { ready, body: { status: ready ? 'ok' : 'starting', shards: [0, 1] } };
      },
    });
    let reply = await get('/healthz');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(await reply.json()).toEqual({ status: 'ok', shards: [0, 1] });
    ready = false;
    reply = await get('/healthz?verbose=1');
    expect(reply.status).toBe(503);
    expect(await reply.json()).toEqual({ status: 'starting', shards: [0, 1] });
    fail = true;
    reply = await get('/healthz');
    expect(reply.status).toBe(503);
    expect(await reply.json()).toEqual({ status: 'error' });
  });

  it('takes an asynchronous check too', async () => {
    const { get } = await start({ health: async () => ({ ready: true, body: { lease: 'held' } }) });
    const reply = await get('/healthz');
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ lease: 'held' });
  });
});

describe('GET /metrics', () => {
  it('serves the Prometheus text of the registry', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    metrics.command('player', 'command', 'ok', 0.1);
    metrics.upstream('player', 429);
    const { get } = await start({ metrics: () => metrics.text() });
    const reply = await get('/metrics');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = parsePrometheus(await reply.text());
    expect(valueOf(text, 'killfeed_commands_total', { command: 'player', outcome: 'ok' })).toBe(1);
    expect(valueOf(text, 'killfeed_upstream_rate_limited_total', { route: 'player' })).toBe(1);
    for (const name of [
      'killfeed_commands_total',
      'killfeed_command_duration_seconds',
      'killfeed_upstream_requests_total',
      'killfeed_upstream_rate_limited_total',
      'killfeed_api_budget_remaining',
      'killfeed_poll_cycle_duration_seconds',
      'killfeed_deliveries_total',
      'killfeed_shard_status',
    ]) {
      expect(text.types.has(name), name).toBe(true);
    }
  });

  it('is 404 where the process serves no metrics, and 500 when gathering them fails', async () => {
    const without = await start();
    expect((await without.get('/metrics')).status).toBe(404);
    const failing = await start({ metrics: () => Promise.reject(new Error('registry broke')) });
    const reply = await failing.get('/metrics');
    expect(reply.status).toBe(500);
    expect(await reply.text()).toBe('metrics unavailable\n');
  });
});

describe('everything else', () => {
  it('is 404 for other paths and 405 for other methods', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const { get } = await start({ metrics: () => metrics.text() });
    expect((await get('/')).status).toBe(404);
    expect((await get('/metrics/extra')).status).toBe(404);
    expect((await get('/healthzz')).status).toBe(404);
    const post = await get('/metrics', { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('drops connections past its cap', async () => {
    const { server } = await start({ maxConnections: 1 });
    // The first connection is in: it got its answer and stays open (keep-alive).
    const first = connect(server.port, '127.0.0.1');
    sockets.push(first);
    const answered = new Promise<string>((resolve) => {
      let text = '';
      first.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('"status":"ok"')) resolve(text);
      });
    });
    first.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    expect(await answered).toMatch(/^HTTP\/1\.1 200/);
    // The second is closed without an answer.
    const second = connect(server.port, '127.0.0.1');
    sockets.push(second);
    const received = await new Promise<string>((resolve) => {
      let text = '';
      second.on('data', (chunk: Buffer) => (text += chunk.toString()));
      second.on('error', () => undefined);
      second.on('close', () => resolve(text));
      second.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(received).toBe('');
  });

  it('closes while a client keeps an idle connection open', async () => {
    const { server, get } = await start();
    expect((await get('/healthz')).status).toBe(200);
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    await expect(get('/healthz')).rejects.toThrow();
  });
});

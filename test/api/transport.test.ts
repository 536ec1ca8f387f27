import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPoolTransport, TransportFailure } from '../../src/api/transport.ts';

let server: Server;
let origin: string;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/slow') return void setTimeout(() => response.end('{}'), 2_000).unref();
    if (request.url === '/reset') return void request.socket.destroy();
    response.setHeader('content-type', 'application/json');
    response.setHeader('x-ratelimit-limit', '60');
    response.end(JSON.stringify({ path: request.url, key: request.headers['x-developer-api-key'] ?? null }));
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('pool transport', () => {
  it('sends GET with the given headers and returns status, lower-cased headers and text', async () => {
    const transport = createPoolTransport();
    const response = await transport.send({
      url: new URL(`${origin}/api/player/a%20b?x=1`),
      headers: { 'X-Developer-API-Key': 'kr_test' },
      signal: AbortSignal.timeout(2_000),
    });
    expect(response.status).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBe('60');
    expect(JSON.parse(response.text)).toEqual({ path: '/api/player/a%20b?x=1', key: 'kr_test' });
    await transport.close();
  });

  it('keeps connections alive between requests to one host', async () => {
    const transport = createPoolTransport({ connections: 1 });
    sockets.clear();
    for (let i = 0; i < 5; i += 1) {
      await transport.send({ url: new URL(`${origin}/ok`), headers: {}, signal: AbortSignal.timeout(2_000) });
    }
    expect(sockets.size).toBe(1);
    await transport.close();
  });

  it('fails with reason aborted when its signal fires', async () => {
    const transport = createPoolTransport();
    const failure = transport.send({
      url: new URL(`${origin}/slow`),
      headers: {},
      signal: AbortSignal.timeout(50),
    });
    await expect(failure).rejects.toBeInstanceOf(TransportFailure);
    await expect(failure).rejects.toMatchObject({ reason: 'aborted' });
    await transport.close();
  });

  it('fails with reason network when the connection is reset', async () => {
    const transport = createPoolTransport();
    const failure = transport.send({
      url: new URL(`${origin}/reset`),
      headers: {},
      signal: AbortSignal.timeout(2_000),
    });
    await expect(failure).rejects.toMatchObject({ reason: 'network' });
    await transport.close();
  });
});

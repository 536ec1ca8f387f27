import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BodyTooLargeFailure,
  createPoolTransport,
  DEFAULT_MAX_BODY_BYTES,
  TransportFailure,
} from '../../src/api/transport.ts';

let server: Server;
let origin: string;
const sockets = new Set<Socket>();
const HUGE = 50 * 1024 * 1024;
/** Called when a request for /slow reaches the server, which never answers it. */
let slowArrived: () => void = () => undefined;
/** A signal that never fires: a hung request fails the test by its timeout, not by a deadline of its own. */
const never = new AbortController().signal;
/** Bytes the server handed to each huge reply's socket, settled once that reply closed. */
const streamed = new Map<string, Promise<number>>();

/** Writes `total` bytes of a JSON string, respecting back-pressure, until done or the client hangs up. */
function streamHuge(response: ServerResponse, total: number, declare: boolean): Promise<number> {
  if (declare) response.setHeader('content-length', String(total));
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  chunk[0] = 0x22;
  let written = 0;
  return new Promise((resolve) => {
    response.on('close', () => resolve(written));
    const pump = (): void => {
      while (written < total && !response.destroyed) {
        written += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      if (written >= total) response.end();
    };
    pump();
  });
}

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/slow') return slowArrived();
    if (request.url === '/reset') return void request.socket.destroy();
    if (request.url === '/huge-chunked' || request.url === '/huge-declared') {
      return void streamed.set(request.url, streamHuge(response, HUGE, request.url === '/huge-declared'));
    }
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
      signal: never,
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
      await transport.send({ url: new URL(`${origin}/ok`), headers: {}, signal: never });
    }
    expect(sockets.size).toBe(1);
    await transport.close();
  });

  it('fails with reason aborted when its signal fires', async () => {
    const transport = createPoolTransport();
    const arrived = new Promise<void>((resolve) => (slowArrived = resolve));
    const controller = new AbortController();
    const failure = transport.send({
      url: new URL(`${origin}/slow`),
      headers: {},
      signal: controller.signal,
    });
    failure.catch(() => undefined);
    await arrived;
    controller.abort();
    await expect(failure).rejects.toBeInstanceOf(TransportFailure);
    await expect(failure).rejects.toMatchObject({ reason: 'aborted' });
    await transport.close();
  });

  it('fails with reason network when the connection is reset', async () => {
    const transport = createPoolTransport();
    const failure = transport.send({
      url: new URL(`${origin}/reset`),
      headers: {},
      signal: never,
    });
    await expect(failure).rejects.toMatchObject({ reason: 'network' });
    await transport.close();
  });

  it('stops reading a streamed body once it passes the limit, without buffering the rest', async () => {
    const transport = createPoolTransport();
    const failure = await transport
      .send({ url: new URL(`${origin}/huge-chunked`), headers: {}, signal: never })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BodyTooLargeFailure);
    const tooLarge = failure as BodyTooLargeFailure;
    expect(tooLarge.reason).toBe('too_large');
    expect(tooLarge.limitBytes).toBe(DEFAULT_MAX_BODY_BYTES);
    expect(tooLarge.receivedBytes).toBeGreaterThan(DEFAULT_MAX_BODY_BYTES);
    expect(tooLarge.receivedBytes).toBeLessThan(DEFAULT_MAX_BODY_BYTES + 1024 * 1024);
    // The connection was dropped: the server could not push the 50 MB through.
    expect(await streamed.get('/huge-chunked')).toBeLessThan(HUGE / 2);
    await transport.close();
  });

  it('refuses a declared Content-Length above the limit before reading the body', async () => {
    const transport = createPoolTransport();
    const failure = await transport
      .send({
        url: new URL(`${origin}/huge-declared`),
        headers: {},
        signal: never,
        maxBytes: 1024 * 1024,
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BodyTooLargeFailure);
    expect(failure).toMatchObject({ limitBytes: 1024 * 1024, receivedBytes: 0 });
    expect(await streamed.get('/huge-declared')).toBeLessThan(HUGE / 2);
    await transport.close();
  });

  it('reads a body of exactly the limit, and refuses one byte more', async () => {
    const transport = createPoolTransport();
    const body = JSON.stringify({ path: '/ok', key: null });
    const send = (maxBytes: number) =>
      transport.send({
        url: new URL(`${origin}/ok`),
        headers: {},
        signal: never,
        maxBytes,
      });
    expect((await send(body.length)).text).toBe(body);
    await expect(send(body.length - 1)).rejects.toBeInstanceOf(BodyTooLargeFailure);
    await transport.close();
  });
});

import { request } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Event } from '../../src/api/schemas/index.ts';
import {
  signPayload,
  startWebhookReceiver,
  verifySignature,
  type WebhookReceiver,
} from '../../src/announcements/webhook.ts';
import { ManualClock } from '../support/clock.ts';
import { capturedLog, drive, posted, subscribeDirectly, useWorldPerTest } from '../support/announcements.ts';

const SECRET = 'whsec_test_secret_value';
const SERVICE = 'Krunker';

interface Reply {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          headers: res.headers,
        }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function event(id: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    type: 'map.featured',
    created_at: '2026-11-21T12:00:00Z',
    target: { type: 'map', id: 7 },
    data: { map_id: 7, map_name: 'Citadel', creator: 'MapMaker' },
    ...extra,
  };
}

let clock: ManualClock;
let receiver: WebhookReceiver;
let received: Event[];
let logged: string;

beforeEach(async () => {
  clock = new ManualClock();
  received = [];
  logged = '';
  receiver = await startReceiver({ maxBodyBytes: 4096, timeoutMs: 300 });
});

/** A receiver on a free port that records what it accepts in `received` and what it logs in `logged`. */
function startReceiver(
  options: Partial<Parameters<typeof startWebhookReceiver>[0]>,
): Promise<WebhookReceiver> {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString('utf8');
      done();
    },
  });
  return startWebhookReceiver({
    port: 0,
    host: '127.0.0.1',
    path: '/webhook',
    secret: SECRET,
    service: SERVICE,
    toleranceSeconds: 300,
    clock,
    log: pino({ level: 'debug' }, sink),
    onEvent: (e) => {
      received.push(e);
      return Promise.resolve();
    },
    ...options,
  });
}

afterEach(async () => {
  await receiver.close();
});

const now = () => Math.floor(clock.now() / 1000);

function signed(body: Buffer | string, at = now(), headers: Record<string, string> = {}) {
  return {
    headers: {
      'content-type': 'application/json',
      [`${SERVICE}-Signature`]: signPayload(SECRET, at, body),
      ...headers,
    },
    body,
  };
}

describe('webhook signature', () => {
  it('accepts a valid delivery and hands the event over once verified', async () => {
    const body = JSON.stringify(event(4242));
    const reply = await send(receiver.url, signed(body, now(), { [`${SERVICE}-Event-Id`]: '4242' }));
    expect(reply.status).toBe(200);
    expect(received.map((e) => e.id)).toEqual([4242]);
  });

  it('refuses a wrong signature, a missing one and malformed ones with 401, processing nothing', async () => {
    const body = JSON.stringify(event(1));
    const wrong = signPayload('another-secret', now(), body);
    const cases: Array<Record<string, string>> = [
      { [`${SERVICE}-Signature`]: wrong },
      {},
      { [`${SERVICE}-Signature`]: '' },
      { [`${SERVICE}-Signature`]: 'garbage' },
      { [`${SERVICE}-Signature`]: `v1=${'a'.repeat(64)}` },
      { [`${SERVICE}-Signature`]: `t=${now()}` },
      { [`${SERVICE}-Signature`]: `t=${now()},v1=not-hex` },
      { [`${SERVICE}-Signature`]: `t=soon,${signPayload(SECRET, now(), body).split(',')[1]}` },
      { [`${SERVICE}-Signature`]: `t=${now()},t=${now()},${signPayload(SECRET, now(), body).split(',')[1]}` },
      { 'Other-Signature': signPayload(SECRET, now(), body) },
    ];
    for (const headers of cases) {
      const reply = await send(receiver.url, {
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      expect(reply.status, JSON.stringify(headers)).toBe(401);
    }
    expect(received).toEqual([]);
  });

  it('refuses timestamps 301 s in the past or the future, accepts 300 s', async () => {
    const body = JSON.stringify(event(2));
    expect((await send(receiver.url, signed(body, now() - 301))).status).toBe(401);
    expect((await send(receiver.url, signed(body, now() + 301))).status).toBe(401);
    expect((await send(receiver.url, signed(body, now() - 300))).status).toBe(200);
    expect((await send(receiver.url, signed(body, now() + 300))).status).toBe(200);
    expect(received).toHaveLength(2);
  });

  it('accepts a header with several v1 entries when one of them matches (secret rotation)', async () => {
    const body = JSON.stringify(event(3));
    const at = now();
    const good = signPayload(SECRET, at, body).split(',')[1]!;
    const old = signPayload('the-previous-secret', at, body).split(',')[1]!;
    const header = `t=${at},v1=${'0'.repeat(64)},${old},v0=ignored,${good}`;
    const reply = await send(receiver.url, { headers: { [`${SERVICE}-Signature`]: header }, body });
    expect(reply.status).toBe(200);
    const none = `t=${at},${old},v1=${'f'.repeat(64)}`;
    expect((await send(receiver.url, { headers: { [`${SERVICE}-Signature`]: none }, body })).status).toBe(
      401,
    );
    expect(received.map((e) => e.id)).toEqual([3]);
  });

  it('verifies the raw bytes, not a re-serialization of the JSON', async () => {
    const raw = Buffer.from(
      '{ "id" : 5,\n "type":"map.featured", "created_at":"2026-11-21T12:00:00Z", "target":{"type":"map","id":7},' +
        ' "data":{"map_id":7,"map_name":"Caf\\u00e9 \u2713","creator":"x"}, "ratio": 1.50 }',
      'utf8',
    );
    expect(JSON.stringify(JSON.parse(raw.toString('utf8')))).not.toBe(raw.toString('utf8'));
    const reply = await send(receiver.url, signed(raw));
    expect(reply.status).toBe(200);
    expect(received[0]?.data?.map_name).toBe('Café ✓');
    // Signed over the re-serialized text instead, the same delivery is refused.
    const reserialized = JSON.stringify(JSON.parse(raw.toString('utf8')));
    const header = signPayload(SECRET, now(), reserialized);
    expect(
      (await send(receiver.url, { headers: { [`${SERVICE}-Signature`]: header }, body: raw })).status,
    ).toBe(401);
  });

  it('refuses a body that is signed but is not an event, and an event id header that contradicts the body', async () => {
    expect((await send(receiver.url, signed('not json'))).status).toBe(401);
    expect((await send(receiver.url, signed('{"hello":"world"}'))).status).toBe(401);
    const body = JSON.stringify(event(6));
    expect((await send(receiver.url, signed(body, now(), { [`${SERVICE}-Event-Id`]: '7' }))).status).toBe(
      401,
    );
    expect(received).toEqual([]);
  });

  it('acknowledges test deliveries (id 0) without handing them over, whatever their Event-Id', async () => {
    const body = JSON.stringify(event(0));
    const reply = await send(receiver.url, signed(body, now(), { [`${SERVICE}-Event-Id`]: '987654' }));
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ test: true });
    expect(received).toEqual([]);
    // A test delivery with a bad signature is refused like any other (the platform checks that).
    const bad = `t=${now()},v1=${'1'.repeat(64)}`;
    expect((await send(receiver.url, { headers: { [`${SERVICE}-Signature`]: bad }, body })).status).toBe(401);
  });

  it('never writes the secret or a signature to its log', async () => {
    const body = JSON.stringify(event(8));
    const header = signPayload('wrong', now(), body);
    await send(receiver.url, { headers: { [`${SERVICE}-Signature`]: header }, body });
    await send(receiver.url, signed(body));
    expect(logged).toContain('webhook delivery refused');
    expect(logged).not.toContain(SECRET);
    expect(logged).not.toContain(header.split('v1=')[1]);
  });
});

describe('webhook transport limits', () => {
  it('answers only POST on its one path', async () => {
    const body = JSON.stringify(event(9));
    expect((await send(receiver.url.replace('/webhook', '/other'), signed(body))).status).toBe(404);
    expect((await send(`${receiver.url}/extra`, signed(body))).status).toBe(404);
    const get = await send(receiver.url, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect((await send(receiver.url, { ...signed(body), method: 'PUT' })).status).toBe(405);
    expect(received).toEqual([]);
  });

  it('refuses a body over the limit, declared or streamed', async () => {
    const big = JSON.stringify(event(10, { padding: 'x'.repeat(5000) }));
    expect((await send(receiver.url, signed(big))).status).toBe(413);
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = request(
        receiver.url,
        {
          method: 'POST',
          headers: {
            'transfer-encoding': 'chunked',
            [`${SERVICE}-Signature`]: signPayload(SECRET, now(), big),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < big.length; i += 1000) req.write(big.slice(i, i + 1000));
      req.end();
    });
    expect(streamed).toBe(413);
    expect(received).toEqual([]);
  });

  it('times out a client that sends its body too slowly', async () => {
    const port = receiver.port;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":`,
        );
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      setTimeout(() => socket.destroy(), 5_000).unref();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(received).toEqual([]);
  });

  it('answers 500 (so the sender retries) when the event cannot be stored', async () => {
    await receiver.close();
    receiver = await startWebhookReceiver({
      port: 0,
      host: '127.0.0.1',
      path: '/hook',
      secret: SECRET,
      service: SERVICE,
      toleranceSeconds: 300,
      clock,
      log: pino({ level: 'silent' }),
      onEvent: () => Promise.reject(new Error('store down')),
    });
    const reply = await send(receiver.url, signed(JSON.stringify(event(11))));
    expect(reply.status).toBe(500);
  });
});

describe('webhook connection cap', () => {
  const CAP = 5;
  const EXTRA = 20;

  function connectTo(port: number): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(socket));
      socket.once('error', reject);
    });
  }

  /** A socket the receiver should drop: resolves with whatever it received once it is closed. */
  function dropped(port: number): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('error', () => undefined);
      socket.once('close', () => resolve(text));
    });
  }

  function closed(socket: Socket): Promise<void> {
    return new Promise((resolve) => {
      if (socket.closed) resolve();
      else socket.once('close', () => resolve());
    });
  }

  it('drops connections over the cap at once, keeps serving those it holds, and recovers', async () => {
    await receiver.close();
    receiver = await startReceiver({ maxConnections: CAP });
    const held: Socket[] = [];
    try {
      for (let i = 0; i < CAP; i += 1) held.push(await connectTo(receiver.port));
      const extras = await Promise.all(Array.from({ length: EXTRA }, () => dropped(receiver.port)));
      expect(extras).toEqual(Array<string>(EXTRA).fill(''));
      expect(logged).toContain('webhook connection limit reached');

      // The connections it holds are still served.
      const first = held[0]!;
      const reply = new Promise<string>((resolve) => {
        let text = '';
        first.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (text.includes('\r\n\r\n')) resolve(text);
        });
      });
      first.write('GET /webhook HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      expect(await reply).toMatch(/^HTTP\/1\.1 405/);
    } finally {
      for (const socket of held) socket.end();
      await Promise.all(held.map(closed));
    }
    const delivered = await send(receiver.url, signed(JSON.stringify(event(42))));
    expect(delivered.status).toBe(200);
    expect(received.map((e) => e.id)).toEqual([42]);
  });
});

describe('webhook port already in use', () => {
  const fixture = useWorldPerTest();

  it('stops only the receiver, loudly: polling still announces', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const { log, lines } = capturedLog();
      await subscribeDirectly(fixture.world, { kind: 'maps' });
      const config = {
        ...fixture.world.config,
        webhook: { port, secret: SECRET, service: SERVICE, path: '/webhook', toleranceSeconds: 300 },
      };
      const process = await fixture.start({ config, log, announcements: { webhookHost: '127.0.0.1' } });
      expect(process.announcements.webhook).toBeUndefined();
      expect(process.announcements.webhookError).toBe('EADDRINUSE');
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 50,
          port,
          code: 'EADDRINUSE',
          msg: expect.stringContaining('webhook'),
        }),
      );

      await drive(fixture.world.clock, process.announcements.pollOnce());
      const map = fixture.world.sandbox.world.maps.find((m) => m.hidden === null && !m.featured)!;
      await fixture.world.clock.advance(1_000);
      fixture.world.sandbox.events.publish('map.featured', map.id);
      await drive(fixture.world.clock, process.announcements.pollOnce());
      expect(posted(fixture.world).map((m) => m.embeds[0]?.title)).toEqual([
        expect.stringContaining(map.name),
      ]);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('verifySignature', () => {
  it('checks the timestamp tolerance both ways and needs a timestamp and a v1', () => {
    const body = Buffer.from('{}');
    const header = signPayload(SECRET, 1_000_000, body);
    expect(verifySignature(header, body, SECRET, 1_000_000, 300)).toEqual({ ok: true, timestamp: 1_000_000 });
    expect(verifySignature(header, body, SECRET, 1_000_301, 300)).toEqual({ ok: false, reason: 'stale' });
    expect(verifySignature(header, body, SECRET, 999_699, 300)).toEqual({ ok: false, reason: 'stale' });
    expect(verifySignature(header, Buffer.from('{ }'), SECRET, 1_000_000, 300)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifySignature(undefined, body, SECRET, 1_000_000, 300)).toEqual({
      ok: false,
      reason: 'missing',
    });
    expect(verifySignature('t=1', body, SECRET, 1, 300)).toEqual({ ok: false, reason: 'malformed' });
  });
});

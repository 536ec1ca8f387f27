import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import { EventSchema, type Event } from '../api/schemas/index.ts';

/**
 * The signed webhook receiver (observed-facts.md, "Webhooks"): `POST <path>` only, the raw body verified
 * before any JSON parsing against `<Service>-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<raw
 * body>")>` (several `v1=` for secret rotation, one match is enough, compared in constant time), a
 * timestamp at most `toleranceSeconds` away in either direction. Every refusal of a delivery answers 401
 * and nothing is processed. Test and verify deliveries (body `id` 0) are acknowledged, never announced.
 */
export interface WebhookOptions {
  /** 0 for an ephemeral port (tests). */
  readonly port: number;
  /** Interface to listen on; all of them when absent. */
  readonly host?: string | undefined;
  readonly path: string;
  readonly secret: string;
  readonly service: string;
  readonly toleranceSeconds: number;
  readonly clock: Clock;
  readonly log: Logger;
  /** Largest body accepted (bytes); larger ones answer 413. Default 64 KiB. */
  readonly maxBodyBytes?: number;
  /** Time a client has to send its headers and body; slower ones get 408. Default 5 s. */
  readonly timeoutMs?: number;
  /**
   * Connections held at once; further ones are closed as they arrive, so that a flood cannot use up the
   * process's file descriptors (the bot's own sockets to Discord and the game). Default 256.
   */
  readonly maxConnections?: number;
  /** A verified event (id > 0). Resolves once the event is safely stored; a rejection answers 500. */
  onEvent(event: Event): Promise<void>;
}

export interface WebhookReceiver {
  readonly port: number;
  /** `http://<host>:<port><path>` */
  readonly url: string;
  close(): Promise<void>;
}

export type VerifyFailure = 'missing' | 'malformed' | 'stale' | 'mismatch';
export type VerifyResult =
  { readonly ok: true; readonly timestamp: number } | { readonly ok: false; readonly reason: VerifyFailure };

const HEX_SIGNATURE = /^[0-9a-f]{64}$/i;

/** Checks a `<Service>-Signature` header against the raw body bytes. */
export function verifySignature(
  header: string | undefined,
  rawBody: Buffer,
  secret: string,
  nowSeconds: number,
  toleranceSeconds: number,
): VerifyResult {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) return { ok: false, reason: 'malformed' };
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return { ok: false, reason: 'malformed' };
      timestamp = value;
    } else if (key === 'v1' && HEX_SIGNATURE.test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined || signatures.length === 0) return { ok: false, reason: 'malformed' };
  const seconds = Number(timestamp);
  if (Math.abs(nowSeconds - seconds) > toleranceSeconds) return { ok: false, reason: 'stale' };
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  let matched = false;
  // Every entry is compared, whether or not an earlier one matched.
  for (const signature of signatures) matched = timingSafeEqual(signature, expected) || matched;
  return matched ? { ok: true, timestamp: seconds } : { ok: false, reason: 'mismatch' };
}

/** The header value a sender computes; for tests and for the demo's sender. */
export function signPayload(secret: string, timestamp: number, rawBody: Buffer | string): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

const DEFAULT_MAX_BODY = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_WEBHOOK_MAX_CONNECTIONS = 256;
const KEEP_ALIVE_MS = 2_000;
const DROP_WARNING_EVERY_MS = 60_000;

class BodyTooLarge extends Error {}

function readBody(request: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        request.off('data', onData);
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

function answer(
  response: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent || response.destroyed) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    ...(text === '' ? {} : { 'Content-Type': 'application/json' }),
    'Content-Length': String(Buffer.byteLength(text)),
  });
  response.end(text);
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Answers the request when it is not a `POST` to the receiver's path; true when it is one. */
function routed(request: IncomingMessage, response: ServerResponse, path: string): boolean {
  const url = new URL(request.url ?? '/', 'http://receiver.invalid');
  if (url.pathname !== path) {
    answer(response, 404, { error: 'not found' });
  } else if (request.method !== 'POST') {
    answer(response, 405, { error: 'method not allowed' }, { Allow: 'POST' });
  } else {
    return true;
  }
  request.resume();
  return false;
}

/** The raw body, or undefined once a body too large was answered 413 (or a broken request dropped). */
async function bodyOf(
  request: IncomingMessage,
  response: ServerResponse,
  maxBody: number,
): Promise<Buffer | undefined> {
  try {
    return await readBody(request, maxBody);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      answer(response, 413, { error: 'body too large' }, { Connection: 'close' });
      response.once('finish', () => request.destroy());
    } else {
      request.destroy();
    }
    return undefined;
  }
}

/** A delivery whose signature, JSON and event shape were checked; or why it is refused. */
type Checked =
  | { readonly ok: true; readonly event: Event; readonly headerId: string | undefined }
  | { readonly ok: false; readonly reason: string };

/**
 * One request to the receiver: routed, read within its bound, verified before it is parsed, then handed
 * to `onEvent`; every refusal answers 401 and nothing is processed.
 */
class WebhookHandler {
  readonly #options: WebhookOptions;
  readonly #maxBody: number;
  readonly #signatureHeader: string;
  readonly #eventIdHeader: string;

  constructor(options: WebhookOptions) {
    this.#options = options;
    this.#maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    this.#signatureHeader = `${options.service}-Signature`;
    this.#eventIdHeader = `${options.service}-Event-Id`;
  }

  readonly handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!routed(request, response, this.#options.path)) return;
    const raw = await bodyOf(request, response, this.#maxBody);
    if (raw === undefined) return;
    const checked = this.#check(request, raw);
    if (!checked.ok) {
      this.#refuse(response, checked.reason);
      return;
    }
    const { event, headerId } = checked;
    const idFromHeader = headerId !== undefined && /^\d{1,18}$/.test(headerId) ? Number(headerId) : undefined;
    if (event.id === 0) {
      this.#options.log.info(
        { eventId: idFromHeader, type: event.type },
        'webhook test delivery acknowledged',
      );
      answer(response, 200, { ok: true, test: true });
      return;
    }
    if (headerId !== undefined && idFromHeader !== event.id) {
      this.#refuse(response, 'event id header does not match the body');
      return;
    }
    await this.#store(event, response);
  };

  #check(request: IncomingMessage, raw: Buffer): Checked {
    const { clock, secret, toleranceSeconds } = this.#options;
    const nowSeconds = Math.floor(clock.now() / 1000);
    const signature = headerValue(request, this.#signatureHeader);
    const verified = verifySignature(signature, raw, secret, nowSeconds, toleranceSeconds);
    if (!verified.ok) return { ok: false, reason: verified.reason };
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      return { ok: false, reason: 'body is not JSON' };
    }
    const parsed = EventSchema.safeParse(json);
    if (!parsed.success || parsed.data.id < 0) return { ok: false, reason: 'body is not an event' };
    return { ok: true, event: parsed.data, headerId: headerValue(request, this.#eventIdHeader)?.trim() };
  }

  async #store(event: Event, response: ServerResponse): Promise<void> {
    try {
      await this.#options.onEvent(event);
    } catch (error) {
      this.#options.log.error({ err: error, eventId: event.id }, 'could not store a webhook event');
      answer(response, 500, { error: 'not stored, try again' });
      return;
    }
    answer(response, 200, { ok: true });
  }

  #refuse(response: ServerResponse, reason: string): void {
    this.#options.log.debug({ reason }, 'webhook delivery refused');
    answer(response, 401, { error: 'invalid delivery' });
  }
}

/** The HTTP server, its timeouts bounding slow clients; a handler that throws answers 500. */
function createReceiverServer(handler: WebhookHandler, timeoutMs: number, log: Logger): Server {
  const server = createServer(
    {
      requestTimeout: timeoutMs,
      headersTimeout: timeoutMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(timeoutMs / 4))),
      keepAliveTimeout: Math.min(KEEP_ALIVE_MS, timeoutMs),
    },
    (request, response) => {
      handler.handle(request, response).catch((error: unknown) => {
        log.error({ err: error }, 'webhook request failed');
        answer(response, 500, { error: 'internal error' });
      });
    },
  );
  // Any socket idle this long is destroyed, whatever state its request is in (after the 408 of a slow one).
  server.setTimeout(2 * timeoutMs);
  return server;
}

/** Holds at most `max` connections; the ones dropped beyond are a warning once a minute, not a flood. */
function limitConnections(server: Server, max: number, clock: Clock, log: Logger): void {
  server.maxConnections = Math.max(1, max);
  let dropped = 0;
  let warnedAt = -Infinity;
  server.on('drop', () => {
    dropped += 1;
    const now = clock.now();
    if (now - warnedAt < DROP_WARNING_EVERY_MS) return;
    log.warn(
      { maxConnections: server.maxConnections, dropped },
      'webhook connection limit reached; dropping',
    );
    warnedAt = now;
    dropped = 0;
  });
}

function listen(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startWebhookReceiver(options: WebhookOptions): Promise<WebhookReceiver> {
  const { log, clock } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const server = createReceiverServer(new WebhookHandler(options), timeoutMs, log);
  limitConnections(server, options.maxConnections ?? DEFAULT_WEBHOOK_MAX_CONNECTIONS, clock, log);
  await listen(server, options.port, options.host);
  const address = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    port: address.port,
    url: `http://${urlHost}:${address.port}${options.path}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';

/**
 * The HTTP layer: one undici pool per origin with keep-alive, and nothing else. It knows no tiers,
 * retries or schemas; a request either yields a status, headers and body text, or fails with a
 * `TransportFailure` saying why (aborted by its signal, the connection failed, or the body was too large).
 */
export interface HttpRequest {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
  /** The most body bytes to read; a longer body is dropped unread. Default {@link DEFAULT_MAX_BODY_BYTES}. */
  readonly maxBytes?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly text: string;
}

export interface Transport {
  send(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

export class TransportFailure extends Error {
  constructor(
    readonly reason: 'aborted' | 'network' | 'too_large',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'TransportFailure';
  }
}

/** The body passed the size limit: reading stopped there and the connection was dropped, not drained. */
export class BodyTooLargeFailure extends TransportFailure {
  constructor(
    readonly limitBytes: number,
    /** Bytes read before giving up (0 when the declared length alone was too much). */
    readonly receivedBytes: number,
  ) {
    super('too_large', `reply body larger than ${limitBytes} bytes`);
    this.name = 'BodyTooLargeFailure';
  }
}

export interface PoolTransportOptions {
  /** Sockets per origin. */
  readonly connections?: number;
  readonly keepAliveTimeoutMs?: number;
}

export function createPoolTransport(options: PoolTransportOptions = {}): Transport {
  const pools = new Map<string, Pool>();

  const poolFor = (origin: string): Pool => {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: options.connections ?? 16,
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
        keepAliveMaxTimeout: 120_000,
      });
      pools.set(origin, pool);
    }
    return pool;
  };

  return {
    async send({ url, headers, signal, maxBytes = DEFAULT_MAX_BODY_BYTES }) {
      try {
        const reply = await poolFor(url.origin).request({
          method: 'GET',
          path: `${url.pathname}${url.search}`,
          headers: { accept: 'application/json', ...headers },
          signal,
        });
        const text = await readBounded(reply.body, reply.headers['content-length'], maxBytes);
        return { status: reply.statusCode, headers: flattenHeaders(reply.headers), text };
      } catch (error) {
        if (error instanceof BodyTooLargeFailure) throw error;
        if (signal.aborted || error instanceof undiciErrors.RequestAbortedError) {
          throw new TransportFailure('aborted', 'request aborted', { cause: error });
        }
        const code = (error as { code?: unknown }).code;
        throw new TransportFailure(
          'network',
          `connection failed${typeof code === 'string' ? ` (${code})` : ''}`,
          {
            cause: error,
          },
        );
      }
    },
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
      pools.clear();
    },
  };
}

/** Reads a body as UTF-8 text, refusing it (and destroying the stream) past `maxBytes`. */
async function readBounded(
  body: Dispatcher.ResponseData['body'],
  declared: string | string[] | undefined,
  maxBytes: number,
): Promise<string> {
  const length = typeof declared === 'string' ? Number(declared) : Number.NaN;
  const refuse = (received: number): BodyTooLargeFailure => {
    // Destroying an unfinished body makes undici emit an abort error on it: expected, not a crash.
    body.on('error', () => undefined);
    body.destroy();
    return new BodyTooLargeFailure(maxBytes, received);
  };
  if (length > maxBytes) throw refuse(0);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > maxBytes) throw refuse(received);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, received).toString('utf8');
}

function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

import { Pool, errors as undiciErrors } from 'undici';

/**
 * The HTTP layer: one undici pool per origin with keep-alive, and nothing else. It knows no tiers,
 * retries or schemas; a request either yields a status, headers and body text, or fails with a
 * `TransportFailure` saying why (aborted by its signal, or the connection failed).
 */
export interface HttpRequest {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal;
}

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
    readonly reason: 'aborted' | 'network',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'TransportFailure';
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
    async send({ url, headers, signal }) {
      try {
        const reply = await poolFor(url.origin).request({
          method: 'GET',
          path: `${url.pathname}${url.search}`,
          headers: { accept: 'application/json', ...headers },
          signal,
        });
        const text = await reply.body.text();
        return { status: reply.statusCode, headers: flattenHeaders(reply.headers), text };
      } catch (error) {
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

function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

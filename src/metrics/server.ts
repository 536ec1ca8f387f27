import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';

/**
 * The operations endpoint of a process (bot, shard manager, worker):
 *
 * - `GET /healthz`: 200 when the process is ready, 503 otherwise, with a JSON body saying why (the
 *   Dockerfile's HEALTHCHECK and an orchestrator's probes use it);
 * - `GET /metrics`: the Prometheus text (404 when the process serves none);
 * - anything else: 404 (405 for another method on those two paths).
 *
 * Connections are capped like the webhook receiver's, so a flood cannot use up the process's descriptors,
 * and a request has a few seconds to arrive whole.
 */
export interface HealthReport {
  readonly ready: boolean;
  /** Sent as JSON: what the process knows of its parts (never a secret). */
  readonly body: object;
}

export interface OpsServerOptions {
  /** 0 picks a free port (tests); `OpsServer.port` tells which. */
  readonly port: number;
  /**
   * The loopback interface by default: the endpoint says how the bot is doing and is nobody else's
   * business (HTTP_HOST opens it, e.g. 0.0.0.0 for a scraper in another container).
   */
  readonly host?: string;
  readonly health: () => HealthReport | Promise<HealthReport>;
  /** The Prometheus text, e.g. `() => metrics.text()` or a merge of the children's snapshots. */
  readonly metrics?: () => Promise<string>;
  readonly log?: Pick<Logger, 'warn'>;
  /** Default 64. */
  readonly maxConnections?: number;
}

export interface OpsServer {
  readonly port: number;
  /** The address it listens on: 127.0.0.1 unless told otherwise. */
  readonly address: string;
  close(): Promise<void>;
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const REQUEST_TIMEOUT_MS = 10_000;

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const server = createServer((request, response) => {
    void answer(options, request, response).catch((error: unknown) => {
      options.log?.warn({ err: error }, 'ops endpoint failed');
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  server.maxConnections = options.maxConnections ?? 64;
  server.headersTimeout = REQUEST_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  return {
    port,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

async function answer(options: OpsServerOptions, request: IncomingMessage, response: ServerResponse) {
  const path = (request.url ?? '/').split('?', 1)[0];
  if (path !== '/healthz' && path !== '/metrics') {
    response.writeHead(404).end();
    return;
  }
  if (request.method !== 'GET') {
    response.writeHead(405, { allow: 'GET' }).end();
    return;
  }
  if (path === '/healthz') {
    let report: HealthReport;
    try {
      report = await options.health();
    } catch (error) {
      options.log?.warn({ err: error }, 'health check failed');
      report = { ready: false, body: { status: 'error' } };
    }
    response.writeHead(report.ready ? 200 : 503, { 'content-type': 'application/json' });
    response.end(JSON.stringify(report.body));
    return;
  }
  if (!options.metrics) {
    response.writeHead(404).end();
    return;
  }
  let text: string;
  try {
    text = await options.metrics();
  } catch (error) {
    options.log?.warn({ err: error }, 'could not gather the metrics');
    response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
    return;
  }
  response.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE }).end(text);
}

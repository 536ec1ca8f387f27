import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy in front of the sandbox's base host that can rewrite successful replies: how the chaos
 * run serves names, sizes and values the sandbox itself never sends. The rewrite gets the raw path (no
 * query) and the whole body, and returns the chunks to send instead, or undefined to leave it as it was.
 */
export type Rewrite = (path: string, body: Buffer) => readonly Buffer[] | undefined;

export interface UpstreamProxy {
  readonly url: string;
  rewrite: Rewrite | undefined;
  close(): Promise<void>;
}

/** Sandbox replies are small; a reply larger than this is passed through untouched. */
const MAX_REWRITTEN_BYTES = 8 * 1024 * 1024;

export async function startUpstreamProxy(target: string): Promise<UpstreamProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  let current: Rewrite | undefined;

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const outgoing = request(
      {
        agent,
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (reply) => {
        const rewrite = current;
        if (!rewrite || reply.statusCode !== 200) {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        reply.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_REWRITTEN_BYTES) chunks.push(chunk);
        });
        reply.on('end', () => {
          const body = Buffer.concat(chunks);
          const path = new URL(req.url ?? '/', 'http://proxy.invalid').pathname;
          let out: readonly Buffer[] | undefined;
          try {
            out = size <= MAX_REWRITTEN_BYTES ? rewrite(path, body) : undefined;
          } catch {
            out = undefined;
          }
          const parts = out ?? [body];
          const headers = { ...reply.headers };
          delete headers['transfer-encoding'];
          headers['content-length'] = String(parts.reduce((sum, part) => sum + part.length, 0));
          res.writeHead(200, headers);
          for (const part of parts) res.write(part);
          res.end();
        });
        reply.on('error', () => res.destroy());
      },
    );
    outgoing.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(outgoing);
  };

  const server = createServer(forward);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get rewrite() {
      return current;
    },
    set rewrite(value) {
      current = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

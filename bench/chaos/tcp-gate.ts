import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder that can shut: while shut, its port refuses connections and the open ones are reset;
 * opened again, it forwards to the same server, whose data is intact (killing a Redis without
 * persistence would lose every subscription and confuse "lost" with "deleted").
 */
export interface TcpGate {
  readonly port: number;
  shut(): Promise<void>;
  open(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpGate(targetPort: number): Promise<TcpGate> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    const next = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      track(client);
      track(upstream);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    const address = next.address();
    if (address && typeof address === 'object') port = address.port;
    server = next;
  };
  const shut = async () => {
    const current = server;
    server = undefined;
    for (const socket of sockets) socket.resetAndDestroy();
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  await listen();
  return {
    port,
    shut,
    open: () => (server ? Promise.resolve() : listen()),
    close: shut,
  };
}

import { connect, type Socket } from 'node:net';

/**
 * Opens `sockets` connections to the port and holds them, sending nothing; a connection the server closes
 * is opened again after a short pause. Bounded: at most `maxOpens` connections in all.
 */
export interface Flood {
  /** Connections opened so far, and how many are held now. */
  stats(): { readonly opened: number; readonly held: number; readonly refused: number };
  stop(): void;
}

export function startFlood(port: number, sockets: number, maxOpens: number): Flood {
  const held = new Set<Socket>();
  let opened = 0;
  let refused = 0;
  let stopped = false;
  const open = () => {
    if (stopped || opened >= maxOpens) return;
    opened += 1;
    const socket = connect(port, '127.0.0.1');
    held.add(socket);
    socket.on('error', () => {
      refused += 1;
    });
    socket.once('close', () => {
      held.delete(socket);
      if (!stopped) setTimeout(open, 500).unref();
    });
  };
  // In batches, so that the flood does not stall the harness's own event loop.
  const batch = 200;
  const ramp = (left: number) => {
    if (stopped || left <= 0) return;
    for (let i = 0; i < Math.min(batch, left); i += 1) open();
    setTimeout(() => ramp(left - batch), 20).unref();
  };
  ramp(sockets);
  return {
    stats: () => ({ opened, held: held.size, refused }),
    stop() {
      stopped = true;
      for (const socket of held) socket.destroy();
      held.clear();
    },
  };
}

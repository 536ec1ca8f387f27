import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The ports the kernel hands out by itself (to `listen(0)` and to every outgoing connection) on Linux by
 * default; read from the machine where it says otherwise.
 */
function ephemeralRange(): readonly [number, number] {
  try {
    const [low = 0, high = 0] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low > 1024 && high >= low) return [low, high];
  } catch {
    // Not Linux: the IANA dynamic range.
  }
  return [49152, 65535];
}

/** The ports `freePort` picks from: below the kernel's own range, so no `listen(0)` or outgoing connection takes one. */
function pickRange(): readonly [number, number] {
  const [low] = ephemeralRange();
  if (low > 12_000) return [10_000, low - 1];
  return [ephemeralRange()[1] + 1, 65_535];
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

const ATTEMPTS = 64;

/**
 * A TCP port free on 127.0.0.1 right now, for a server that is started later (a child process given the
 * port in its environment, or a configuration that refuses port 0).
 *
 * The port is drawn at random from outside the kernel's ephemeral range: a port from `listen(0)` would be
 * closed again before its server starts, and in that gap any other socket of the machine (another test's
 * server, an outgoing connection to PostgreSQL) could be given it by the kernel, which failed tests with
 * EADDRINUSE. Outside that range only another `freePort` caller could take it, and the draw is random.
 */
export async function freePort(): Promise<number> {
  const [low, high] = pickRange();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port found in ${ATTEMPTS} tries between ${low} and ${high}`);
}

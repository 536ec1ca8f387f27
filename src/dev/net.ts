import { createServer, type AddressInfo } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for servers whose configuration refuses port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

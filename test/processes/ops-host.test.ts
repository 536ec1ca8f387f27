import { afterEach, describe, expect, it } from 'vitest';
import { startOpsServer, type OpsServer } from '../../src/metrics/index.ts';

/** The operations endpoint says how the bot is doing: nobody but the machine itself asks, unless told. */
const started: OpsServer[] = [];
const health = () => ({ ready: true, body: { status: 'ok' } });

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

describe('the ops listener', () => {
  it('listens on 127.0.0.1 when no host is given', async () => {
    const server = await startOpsServer({ port: 0, health });
    started.push(server);
    expect(server.address).toBe('127.0.0.1');
    const reply = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(reply.status).toBe(200);
  });

  it('listens where HTTP_HOST says', async () => {
    const server = await startOpsServer({ port: 0, host: '127.0.0.2', health });
    started.push(server);
    expect(server.address).toBe('127.0.0.2');
  });
});

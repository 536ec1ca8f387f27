import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { startDiscordStandin, type DiscordStandin } from '../../../src/dev/standin/index.ts';
import { rawGateway } from '../../support/standin.ts';

let standin: DiscordStandin | undefined;
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await standin?.close();
  standin = undefined;
});

async function connect(s: DiscordStandin, query?: string) {
  const connection = await rawGateway(s, query);
  sockets.push(connection.socket);
  return connection;
}

describe('the gateway', () => {
  it('says HELLO, acknowledges heartbeats and answers IDENTIFY with READY then GUILD_CREATE', async () => {
    standin = await startDiscordStandin();
    const guild = standin.addGuild({ name: 'Raw' });
    const conn = await connect(standin, '?v=10&encoding=json&compress=zlib-stream');
    const hello = await conn.next();
    expect(hello).toMatchObject({ op: 10, d: { heartbeat_interval: expect.any(Number) as number } });
    conn.send({ op: 1, d: null });
    expect((await conn.next()).op).toBe(11);
    conn.send({ op: 2, d: { token: standin.token, intents: 1, properties: { os: 'linux' }, shard: [0, 1] } });
    const ready = await conn.next();
    expect(ready).toMatchObject({ op: 0, t: 'READY', s: 1 });
    expect(ready.d).toMatchObject({
      v: 10,
      user: { id: standin.botUserId, bot: true },
      guilds: [{ id: guild.id, unavailable: true }],
      session_id: expect.any(String) as string,
      resume_gateway_url: standin.gatewayUrl,
      application: { id: standin.applicationId, flags: 0 },
      shard: [0, 1],
    });
    const created = await conn.next();
    expect(created).toMatchObject({
      op: 0,
      t: 'GUILD_CREATE',
      s: 2,
      d: { id: guild.id, name: 'Raw', unavailable: false },
    });
  });

  it('closes with 4004 on a wrong token and 4014 on privileged intents', async () => {
    standin = await startDiscordStandin();
    const wrong = await connect(standin);
    await wrong.next();
    wrong.send({ op: 2, d: { token: 'nope', intents: 1, properties: {} } });
    expect(await wrong.closed).toBe(4004);
    const privileged = await connect(standin);
    await privileged.next();
    privileged.send({ op: 2, d: { token: standin.token, intents: 1 << 15, properties: {} } });
    expect(await privileged.closed).toBe(4014);
  });

  it('closes with 4003 on a payload before IDENTIFY and answers an unknown RESUME with INVALID_SESSION', async () => {
    standin = await startDiscordStandin();
    const early = await connect(standin);
    await early.next();
    early.send({ op: 3, d: { status: 'online' } });
    expect(await early.closed).toBe(4003);
    const resume = await connect(standin);
    await resume.next();
    resume.send({ op: 6, d: { token: standin.token, session_id: 'unknown', seq: 3 } });
    expect(await resume.next()).toMatchObject({ op: 9, d: false });
  });

  it('refuses an interaction when no client is connected, rather than losing it', async () => {
    standin = await startDiscordStandin();
    standin.addChannel(standin.addGuild({}).id, {});
    expect(() => standin?.invokeCommand({ name: 'ping' })).toThrow(/no gateway session/);
  });
});

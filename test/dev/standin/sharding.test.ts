import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import {
  guildIdOnShard,
  ownerShard,
  startDiscordStandin,
  type DiscordStandin,
} from '../../../src/dev/standin/index.ts';
import { rawGateway, type Payload, type RawConnection } from '../../support/standin.ts';

/** The stand-in shards as Discord does: recommended count, routing by guild id, 4011 past 2,500 servers. */
let standin: DiscordStandin | undefined;
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await standin?.close();
  standin = undefined;
});

async function gatewayBot(s: DiscordStandin) {
  const reply = await fetch(`${s.restUrl}/v10/gateway/bot`, { headers: { authorization: `Bot ${s.token}` } });
  expect(reply.status).toBe(200);
  return (await reply.json()) as { url: string; shards: number; session_start_limit: Record<string, number> };
}

/** Connects and identifies as `shard`; resolves with the connection, HELLO already taken. */
async function identify(s: DiscordStandin, shard: [number, number]): Promise<RawConnection> {
  const connection = await rawGateway(s);
  sockets.push(connection.socket);
  expect((await connection.next()).op).toBe(10);
  connection.send({ op: 2, d: { token: s.token, intents: 1, properties: { os: 'linux' }, shard } });
  return connection;
}

/** The next dispatch, its READY's guild ids or its payload. */
async function ready(connection: RawConnection): Promise<string[]> {
  const payload = await connection.next();
  expect(payload.t).toBe('READY');
  return (payload.d as { guilds: Array<{ id: string }> }).guilds.map((g) => g.id);
}

/** Proves nothing was sent before: a heartbeat's ACK comes back after anything already on the wire. */
async function nothingPending(connection: RawConnection): Promise<void> {
  connection.send({ op: 1, d: null });
  const next: Payload = await connection.next();
  expect(next.op).toBe(11);
}

function guildOf(payload: Payload): string | undefined {
  const d = payload.d as { guild_id?: string; id?: string };
  return payload.t === 'GUILD_CREATE' ? d.id : d.guild_id;
}

describe('sharding on the stand-in', () => {
  it('recommends one shard per 1,000 servers in GET /gateway/bot', async () => {
    standin = await startDiscordStandin();
    const empty = await gatewayBot(standin);
    expect(empty).toMatchObject({ url: standin.gatewayUrl, shards: 1 });
    expect(empty.session_start_limit).toMatchObject({ total: 1000, max_concurrency: 1 });
    for (let n = 0; n < 1000; n += 1) standin.addGuild({ id: guildIdOnShard(0, 1, n) });
    expect((await gatewayBot(standin)).shards).toBe(1);
    standin.addGuild({ id: guildIdOnShard(0, 1, 1000) });
    expect((await gatewayBot(standin)).shards).toBe(2);
  });

  it('tells the session start concurrency it was given', async () => {
    standin = await startDiscordStandin({ maxConcurrency: 16 });
    expect((await gatewayBot(standin)).session_start_limit.max_concurrency).toBe(16);
  });

  it("sends each session its shard's servers, their events and interactions; the rest go to shard 0", async () => {
    standin = await startDiscordStandin();
    const s = standin;
    const g0 = s.addGuild({ id: guildIdOnShard(0, 2, 0), name: 'zero' }).id;
    const g1 = s.addGuild({ id: guildIdOnShard(1, 2, 0), name: 'one' }).id;
    expect([ownerShard(g0, 2), ownerShard(g1, 2)]).toEqual([0, 1]);
    s.addChannel(g0);
    s.addChannel(g1);
    const zero = await identify(s, [0, 2]);
    expect(await ready(zero)).toEqual([g0]);
    expect(guildOf(await zero.next())).toBe(g0);
    const one = await identify(s, [1, 2]);
    expect(await ready(one)).toEqual([g1]);
    expect(guildOf(await one.next())).toBe(g1);
    expect(s.gatewaySessions()).toEqual([
      { shard: [0, 2], connected: true },
      { shard: [1, 2], connected: true },
    ]);

    s.invokeCommand({ name: 'ping', guildId: g1 });
    const toOne = await one.next();
    expect([toOne.t, guildOf(toOne)]).toEqual(['INTERACTION_CREATE', g1]);
    await nothingPending(zero);

    s.invokeCommand({ name: 'ping', guildId: g0 });
    const toZero = await zero.next();
    expect([toZero.t, guildOf(toZero)]).toEqual(['INTERACTION_CREATE', g0]);
    await nothingPending(one);

    s.invokeCommand({ name: 'ping', guildId: null });
    const dm = await zero.next();
    expect([dm.t, guildOf(dm)]).toEqual(['INTERACTION_CREATE', undefined]);
    await nothingPending(one);

    const joined = s.addGuild({ id: guildIdOnShard(1, 2, 1), name: 'joined later' }).id;
    const created = await one.next();
    expect([created.t, guildOf(created)]).toEqual(['GUILD_CREATE', joined]);
    await nothingPending(zero);
  });

  it('closes a session that would hold more than 2,500 servers with 4011; two shards hold them', async () => {
    standin = await startDiscordStandin();
    for (let n = 0; n < 2501; n += 1) standin.addGuild({ id: guildIdOnShard(n % 2, 2, Math.floor(n / 2)) });
    expect((await gatewayBot(standin)).shards).toBe(3);

    const unsharded = await identify(standin, [0, 1]);
    expect(await unsharded.closed).toBe(4011);
    expect(standin.gatewaySessions()).toEqual([]);

    const zero = await identify(standin, [0, 2]);
    const one = await identify(standin, [1, 2]);
    expect((await ready(zero)).length).toBe(1251);
    expect((await ready(one)).length).toBe(1250);
  });

  it('refuses a shard that is not one of its count with 4010', async () => {
    standin = await startDiscordStandin();
    const outside = await identify(standin, [2, 2]);
    expect(await outside.closed).toBe(4010);
  });
});

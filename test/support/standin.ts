import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, type ClientOptions } from 'discord.js';
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import type { DiscordStandin } from '../../src/dev/standin/index.ts';

/** A real discord.js client logged in to the stand-in and ready (guilds received). */
export async function readyClient(
  standin: DiscordStandin,
  options: Partial<ClientOptions> = {},
): Promise<Client> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    ...options,
    rest: { api: standin.restUrl },
  });
  const ready = once(client, Events.ClientReady);
  try {
    await client.login(standin.token);
    await ready;
  } catch (error) {
    await client.destroy();
    throw error;
  }
  return client;
}

/** A 1x1 PNG. */
export const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export interface Payload {
  op: number;
  d: unknown;
  s: number | null;
  t: string | null;
}

export interface RawConnection {
  socket: WebSocket;
  /** Resolves with the close code. */
  closed: Promise<number>;
  next(): Promise<Payload>;
  /** What arrived and has not been taken by `next` yet. */
  queued(): readonly Payload[];
  send(payload: unknown): void;
}

/** A raw gateway connection that queues what it receives, so no payload is missed between awaits. */
export async function rawGateway(s: DiscordStandin, query = '?v=10&encoding=json'): Promise<RawConnection> {
  const socket = new WebSocket(`${s.gatewayUrl}${query}`);
  const inbox: Payload[] = [];
  const waiting: Array<(p: Payload) => void> = [];
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    expect(isBinary).toBe(false);
    const payload = JSON.parse(data.toString('utf8')) as Payload;
    const waiter = waiting.shift();
    if (waiter) waiter(payload);
    else inbox.push(payload);
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await once(socket, 'open');
  return {
    socket,
    closed,
    next: (): Promise<Payload> => {
      const queued = inbox.shift();
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve));
    },
    queued: () => [...inbox],
    send: (payload: unknown) => socket.send(JSON.stringify(payload)),
  };
}

import { once } from 'node:events';
import { Client, Events, GatewayIntentBits, type ClientOptions } from 'discord.js';
import type { DiscordStandin } from '../../../src/dev/standin/index.ts';

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

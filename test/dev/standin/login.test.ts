import { once } from 'node:events';
import { ChannelType, Events, PermissionFlagsBits, type Client, type Guild } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startDiscordStandin, type DiscordStandin } from '../../../src/dev/standin/index.ts';
import { readyClient } from '../../support/standin.ts';

let standin: DiscordStandin | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.destroy();
  await standin?.close();
  client = undefined;
  standin = undefined;
});

describe('logging in to the Discord stand-in', () => {
  it('becomes ready with the added guilds, channels, roles and its own member cached', async () => {
    standin = await startDiscordStandin();
    const g = standin.addGuild({ name: 'Clan Hall', preferredLocale: 'de' });
    const text = standin.addChannel(g.id, { name: 'killfeed' });
    const role = standin.addRole(g.id, {
      name: 'Moderator',
      permissions: PermissionFlagsBits.ManageMessages,
    });
    client = await readyClient(standin);

    expect(client.user?.id).toBe(standin.botUserId);
    expect(client.application?.id).toBe(standin.applicationId);
    const guild = client.guilds.cache.get(g.id);
    expect(guild?.name).toBe('Clan Hall');
    expect(guild?.preferredLocale).toBe('de');
    expect(guild?.available).toBe(true);
    const channel = guild?.channels.cache.get(text.id);
    expect(channel?.type).toBe(ChannelType.GuildText);
    expect(channel?.name).toBe('killfeed');
    expect(guild?.roles.cache.get(role.id)?.permissions.has(PermissionFlagsBits.ManageMessages)).toBe(true);
    expect(guild?.members.me?.id).toBe(standin.botUserId);
    expect(standin.requests().map((r) => `${r.method} ${r.path}`)).toContain('GET /gateway/bot');
  });

  it('shows discord.js exactly the channel permissions set for the bot', async () => {
    standin = await startDiscordStandin();
    const g = standin.addGuild({});
    const open = standin.addChannel(g.id, { name: 'open' });
    const locked = standin.addChannel(g.id, { name: 'locked' });
    const perms = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;
    standin.setBotPermissions(g.id, locked.id, perms);
    client = await readyClient(standin);

    const guild = client.guilds.cache.get(g.id) as Guild;
    const me = guild.members.me!;
    expect(guild.channels.cache.get(locked.id)?.permissionsFor(me)?.bitfield).toBe(perms);
    expect(guild.channels.cache.get(open.id)?.permissionsFor(me)?.has(PermissionFlagsBits.EmbedLinks)).toBe(
      true,
    );

    const updated = once(client, Events.ChannelUpdate);
    standin.setBotPermissions(g.id, open.id, PermissionFlagsBits.ViewChannel);
    await updated;
    expect(guild.channels.cache.get(open.id)?.permissionsFor(me)?.bitfield).toBe(
      PermissionFlagsBits.ViewChannel,
    );
  });

  it('tells a ready client about guilds added later, as Discord does when the bot joins', async () => {
    standin = await startDiscordStandin();
    client = await readyClient(standin);
    const joined = once(client, Events.GuildCreate) as Promise<[Guild]>;
    const g = standin.addGuild({ name: 'Late Server' });
    const [guild] = await joined;
    expect(guild.id).toBe(g.id);
    expect(guild.name).toBe('Late Server');
  });

  it('refuses a wrong token, which discord.js reports as an invalid token', async () => {
    standin = await startDiscordStandin({ token: 'right-token' });
    const { Client: DiscordClient, GatewayIntentBits } = await import('discord.js');
    client = new DiscordClient({ intents: [GatewayIntentBits.Guilds], rest: { api: standin.restUrl } });
    await expect(client.login('wrong-token')).rejects.toMatchObject({ code: 'TokenInvalid' });
    expect(standin.requests().at(-1)).toMatchObject({ path: '/gateway/bot', status: 401 });
  });

  it('resumes the session after a RECONNECT and replays what was dispatched meanwhile', async () => {
    standin = await startDiscordStandin();
    const g = standin.addGuild({});
    standin.addChannel(g.id, {});
    client = await readyClient(standin);
    const debug: string[] = [];
    client.on(Events.Debug, (message) => debug.push(message));
    client.on(Events.InteractionCreate, (interaction) => {
      if (interaction.isChatInputCommand()) void interaction.reply('pong');
    });
    const reconnecting = once(client, Events.ShardReconnecting);
    const resumed = once(client, Events.ShardResume);
    standin.requestReconnect();
    await reconnecting;
    const pending = standin.invokeCommand({ name: 'ping', guildId: g.id });
    await resumed;
    expect((await pending.final()).content).toBe('pong');
    // RESUMED itself counts as one replayed event, so two means the interaction was replayed.
    expect(debug.find((m) => m.includes('Resumed and replayed'))).toMatch(/Resumed and replayed 2 events/);
  });

  it('leaves nothing listening or connected once the client is destroyed and the stand-in closed', async () => {
    const tcp = () => process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP')).length;
    const before = tcp();
    standin = await startDiscordStandin();
    standin.addGuild({});
    client = await readyClient(standin);
    expect(tcp()).toBeGreaterThan(before);
    const { restUrl } = standin;
    await client.destroy();
    await standin.close();
    client = undefined;
    standin = undefined;
    // Closed handles leave the list on the next turns of the event loop (its close phase), not synchronously:
    // counted in turns, not in time.
    for (let turn = 0; turn < 100 && tcp() > before; turn++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(tcp()).toBe(before);
    await expect(fetch(`${restUrl}/v10/gateway`)).rejects.toThrow();
  });
});

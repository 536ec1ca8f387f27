import {
  ApplicationCommandOptionType,
  Events,
  MessageFlags,
  PermissionFlagsBits,
  type ClientEvents,
} from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { command as subscribe } from '../../commands/subscribe.ts';
import { SUBSCRIBE_KINDS } from '../../commands/subscribe/kinds.ts';
import { REQUIRED_CHANNEL_PERMISSIONS } from '../../src/announcements/manage.ts';
import { ANNOUNCEMENT_KINDS } from '../../src/kinds.ts';
import { checkMessageLimits } from '../../src/render/text.ts';
import { invoke, startProcess, startWorld, type Process, type World } from '../support/announcements.ts';

/** /subscribe, /subscriptions and /unsubscribe through the real discord.js client and the stand-in. */
let world: World;
let bot: Process;
const MANAGER =
  PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;

beforeAll(async () => {
  world = await startWorld();
  bot = await startProcess(world);
});

afterAll(async () => {
  await bot.stop();
  await world.close();
});

beforeEach(async () => {
  for (const subscription of await world.repos.subscriptions.all()) {
    await world.repos.subscriptions.delete(subscription.id);
  }
});

/**
 * Resolves once `check` holds in the bot's cache: checked now, then again at each of `events` the bot's
 * client receives from the stand-in's gateway (what fills that cache), never on a timer.
 */
async function cached(check: () => boolean, events: ReadonlyArray<keyof ClientEvents>): Promise<void> {
  if (check()) return;
  await new Promise<void>((resolve) => {
    const listener = () => {
      if (!check()) return;
      for (const event of events) bot.client.off(event, listener);
      resolve();
    };
    for (const event of events) bot.client.on(event, listener);
  });
}

async function run(
  name: string,
  sub: string | undefined,
  values: Record<string, string | number> = {},
  locale?: string,
) {
  const reply = await invoke(world, name, sub, values, {
    memberPermissions: MANAGER,
    ...(locale === undefined ? {} : { locale }),
  }).final();
  expect(checkMessageLimits({ content: reply.content, embeds: reply.embeds })).toEqual([]);
  return reply;
}

function describeReply(reply: {
  embeds: Array<{ title?: string; description?: string; fields?: Array<{ name: string; value: string }> }>;
}) {
  const embed = reply.embeds[0];
  return [embed?.title, embed?.description, ...(embed?.fields ?? []).flatMap((f) => [f.name, f.value])].join(
    '\n',
  );
}

describe('/subscribe', () => {
  it('has one subcommand per announcement kind but track and remind (made by /track and /remind), each the command half of that very kind', () => {
    const subscribable = ANNOUNCEMENT_KINDS.filter((kind) => kind.name !== 'track' && kind.name !== 'remind');
    expect(SUBSCRIBE_KINDS).toHaveLength(subscribable.length);
    SUBSCRIBE_KINDS.forEach((entry, index) => expect(entry.kind).toBe(subscribable[index]));
    expect(subscribe.data.options?.map((option) => option.name)).toEqual(
      subscribable.map((kind) => kind.name),
    );
    for (const option of subscribe.data.options ?? []) {
      expect(option.type).toBe(ApplicationCommandOptionType.Subcommand);
      expect(option.options?.[0]?.name).toBe('channel');
    }
  });

  it('subscribes a channel to featured maps with a role, answering privately', async () => {
    const role = world.discord.addRole(world.guildId, { name: 'mappers' });
    // The caller may ping it (Mention @everyone); the bot may not, which the answer notes.
    const mentioner = world.discord.addRole(world.guildId, {
      name: 'mentioners',
      permissions: PermissionFlagsBits.MentionEveryone,
    });
    await cached(() => {
      const roles = bot.client.guilds.cache.get(world.guildId)?.roles.cache;
      return roles?.has(role.id) === true && roles.has(mentioner.id);
    }, [Events.GuildRoleCreate]);
    const reply = await invoke(
      world,
      'subscribe',
      'maps',
      { channel: world.channelId, role: role.id },
      { memberPermissions: MANAGER, memberRoles: [mentioner.id] },
    ).final();
    expect(checkMessageLimits({ content: reply.content, embeds: reply.embeds })).toEqual([]);
    expect(reply.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(reply.embeds[0]?.title).toBe('Subscribed');
    const [stored] = await world.repos.subscriptions.forGuild(world.guildId);
    expect(stored).toMatchObject({
      kind: 'maps',
      channelId: world.channelId,
      options: { roleId: role.id },
      locale: 'en-US',
      state: { status: 'active' },
    });
    expect(stored?.since).toBe(world.clock.now());
    expect(describeReply(reply)).toContain(stored!.id);
    // The role is not mentionable and the bot may not mention every role: the answer says so.
    expect(describeReply(reply)).toContain('not mentionable');
  });

  it('subscribes a channel to a clan’s turf war, checking the clan exists', async () => {
    const clan = world.sandbox.world.clans[0]!;
    const reply = await run('subscribe', 'turf', { channel: world.channelId, clan: clan.name });
    expect(describeReply(reply)).toContain('Subscribed');
    const [stored] = await world.repos.subscriptions.forGuild(world.guildId);
    expect(stored?.options).toEqual({ clanId: clan.id, clanName: clan.name });
    const missing = await run('subscribe', 'turf', {
      channel: world.channelId,
      clan: 'No Such Clan Anywhere',
    });
    expect(describeReply(missing)).toContain('There is no clan named No Such Clan Anywhere');
    expect(await world.repos.subscriptions.forGuild(world.guildId)).toHaveLength(1);
  });

  it('updates the subscription of the same channel and kind instead of adding one, re-enabling it', async () => {
    await run('subscribe', 'maps', { channel: world.channelId });
    const [first] = await world.repos.subscriptions.forGuild(world.guildId);
    await world.repos.subscriptions.disable(first!.id, 'missingPermissions', 50013, world.clock.now());
    await world.clock.advance(60_000);
    const reply = await run('subscribe', 'maps', { channel: world.channelId });
    expect(reply.embeds[0]?.title).toBe('Subscription updated');
    const all = await world.repos.subscriptions.forGuild(world.guildId);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: first!.id, state: { status: 'active' }, since: world.clock.now() });
  });

  it('refuses a member without Manage Server, for every command, before doing anything', async () => {
    const everyone = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;
    for (const [name, sub, values] of [
      ['subscribe', 'maps', { channel: world.channelId }],
      ['subscriptions', undefined, {}],
      ['unsubscribe', undefined, { id: 'abcdef' }],
    ] as const) {
      const reply = await invoke(world, name, sub, values, { memberPermissions: everyone }).final();
      expect(reply.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
      expect(describeReply(reply), name).toContain('Manage Server');
    }
    expect(await world.repos.subscriptions.all()).toEqual([]);
  });

  it('refuses a channel where the bot lacks a permission it needs, naming it', async () => {
    const all = REQUIRED_CHANNEL_PERMISSIONS.reduce((sum, [, flag]) => sum | flag, 0n);
    for (const [name, flag] of REQUIRED_CHANNEL_PERMISSIONS) {
      const channelId = world.addChannel(`no-${name.toLowerCase()}`);
      world.discord.setBotPermissions(world.guildId, channelId, all & ~flag);
      await cached(() => {
        const channel = bot.client.channels.cache.get(channelId);
        return (
          channel !== undefined &&
          'permissionOverwrites' in channel &&
          channel.permissionOverwrites.cache.size > 0
        );
      }, [Events.ChannelCreate, Events.ChannelUpdate]);
      const reply = await run('subscribe', 'maps', { channel: channelId });
      const label = name.replace(/([a-z])([A-Z])/g, '$1 $2');
      expect(describeReply(reply), name).toContain(`missing **${label}**`);
    }
    expect(await world.repos.subscriptions.all()).toEqual([]);
  });

  it('answers in the reader’s language', async () => {
    const reply = await run('subscribe', 'maps', { channel: world.channelId }, 'de');
    expect(reply.embeds[0]?.title).toBe('Abonniert');
  });

  it('stops at 25 subscriptions in a server', async () => {
    for (let i = 0; i < 25; i += 1) {
      await world.repos.subscriptions.create({
        guildId: world.guildId,
        channelId: `9000000000000000${String(i).padStart(2, '0')}`,
        kind: 'maps',
        options: {},
        locale: 'en-US',
        createdBy: '1',
        createdAt: 0,
        since: 0,
        state: { status: 'active' },
      });
    }
    const reply = await run('subscribe', 'turf', { channel: world.channelId });
    expect(describeReply(reply)).toContain('already has 25 subscriptions');
  });
});

describe('/subscriptions and /unsubscribe', () => {
  it('lists the server’s subscriptions with their state and the reason of a disabled one', async () => {
    const empty = await run('subscriptions', undefined);
    expect(describeReply(empty)).toContain('Nothing is announced here yet');
    await run('subscribe', 'maps', { channel: world.channelId });
    const other = world.addChannel('turf-news');
    await cached(() => bot.client.channels.cache.has(other), [Events.ChannelCreate]);
    await run('subscribe', 'turf', { channel: other });
    const turf = (await world.repos.subscriptions.forGuild(world.guildId)).find((s) => s.kind === 'turf')!;
    await world.repos.subscriptions.disable(turf.id, 'unknownChannel', 10003, world.clock.now());
    const reply = await run('subscriptions', undefined);
    const text = describeReply(reply);
    expect(reply.flags & MessageFlags.Ephemeral).toBe(MessageFlags.Ephemeral);
    expect(text).toContain('Featured maps');
    expect(text).toContain('Turf wars');
    expect(text).toContain('Active');
    expect(text).toContain('the channel no longer exists');
    expect(text).toContain(`<#${other}>`);
  });

  it('removes a subscription by id, and only one of this server', async () => {
    await run('subscribe', 'maps', { channel: world.channelId });
    const [subscription] = await world.repos.subscriptions.forGuild(world.guildId);
    const { id: _id, ...fields } = subscription!;
    const foreign = await world.repos.subscriptions.create({ ...fields, guildId: '123456789012345678' });
    const refused = await run('unsubscribe', undefined, { id: foreign.id });
    expect(describeReply(refused)).toContain('no subscription with the id');
    expect(await world.repos.subscriptions.get(foreign.id)).toBeDefined();
    const reply = await run('unsubscribe', undefined, { id: subscription!.id.toUpperCase() });
    expect(reply.embeds[0]?.title).toBe('Unsubscribed');
    expect(await world.repos.subscriptions.get(subscription!.id)).toBeUndefined();
    await world.repos.subscriptions.delete(foreign.id);
  });

  it('suggests the server’s subscription ids', async () => {
    await run('subscribe', 'maps', { channel: world.channelId });
    const [subscription] = await world.repos.subscriptions.forGuild(world.guildId);
    const pending = world.discord.autocomplete({
      name: 'unsubscribe',
      guildId: world.guildId,
      memberPermissions: MANAGER,
      options: [{ type: ApplicationCommandOptionType.String, name: 'id', value: '', focused: true }],
    });
    const response = await pending.response();
    const choices = (response.data as { choices: Array<{ name: string; value: string }> }).choices;
    expect(choices).toEqual([
      { name: `${subscription!.id} · Featured maps · #announcements`, value: subscription!.id },
    ]);
  });
});

import { Events, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { command as alertCommand } from '../../commands/alert.ts';
import { command as trackCommand } from '../../commands/track.ts';
import { AlertRepository } from '../../src/features/alerts/store.ts';
import {
  cached,
  commandOptions,
  routeCommands,
  useWorldPerTest,
  type OptionValue,
  type Process,
} from '../support/announcements.ts';

/**
 * `/subscribe`, `/track add` and `/alert add` point the bot at a channel (and maybe a role to ping): each
 * checks that the member who runs it may view and send there, and ping that role, as it checks the bot.
 */
routeCommands(alertCommand, trackCommand);

const fixture = useWorldPerTest();
const MANAGER =
  PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;
const CALLER = '300000000000000042';
const EVERYONE_WITHOUT_VIEW =
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.UseApplicationCommands;

function reply(
  name: string,
  sub: string,
  values: Record<string, OptionValue>,
  memberRoles: string[] = [],
): Promise<string> {
  const { world } = fixture;
  return world.discord
    .invokeCommand({
      name,
      guildId: world.guildId,
      options: commandOptions(name, sub, values),
      user: { id: CALLER, username: 'caller' },
      memberPermissions: MANAGER,
      memberRoles,
    })
    .final()
    .then((message) =>
      [message.content, ...message.embeds.flatMap((embed) => [embed.title, embed.description])].join('\n'),
    );
}

/** @everyone loses View Channel (the bot keeps its own role's): the caller sees no channel of the server. */
async function hideChannelsFromEveryone(process: Process): Promise<void> {
  const { world } = fixture;
  world.discord.editRole(world.guildId, world.guildId, { permissions: EVERYONE_WITHOUT_VIEW });
  await cached(
    process.client,
    () =>
      process.client.guilds.cache
        .get(world.guildId)
        ?.roles.cache.get(world.guildId)
        ?.permissions.has(PermissionFlagsBits.ViewChannel) === false,
    [Events.GuildRoleUpdate],
  );
}

async function roleSeen(process: Process, roleId: string): Promise<void> {
  await cached(
    process.client,
    () => process.client.guilds.cache.get(fixture.world.guildId)?.roles.cache.has(roleId) === true,
    [Events.GuildRoleCreate],
  );
}

function skin(): number {
  const market = fixture.world.sandbox.world.market.find((m) => m.listings.length > 0);
  if (!market) throw new Error('the sandbox lists nothing');
  return market.skinIndex;
}

describe('the caller’s rights in the target channel', () => {
  it('refuses /subscribe, /track add and /alert add into a channel the caller cannot view, naming it', async () => {
    const { world } = fixture;
    const process = await fixture.start({ commands: true });
    await hideChannelsFromEveryone(process);
    const player = world.sandbox.world.samples.rankedPlayer;
    const answers = [
      await reply('subscribe', 'maps', { channel: world.channelId }),
      await reply('track', 'add', { player, channel: world.channelId }),
      await reply('alert', 'add', { skin: skin(), direction: 'below', price: 10, channel: world.channelId }),
    ];
    for (const answer of answers) {
      expect(answer).toContain(`You cannot use <#${world.channelId}> yourself`);
      expect(answer).toContain('View Channel');
    }
    expect(await world.repos.subscriptions.forGuild(world.guildId)).toEqual([]);
    expect(await new AlertRepository(world.db).countMadeIn(world.guildId)).toBe(0);

    // A role of theirs that lets them view there: all three go through.
    const viewer = world.discord.addRole(world.guildId, {
      name: 'viewers',
      permissions: PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages,
    });
    await roleSeen(process, viewer.id);
    expect(await reply('subscribe', 'maps', { channel: world.channelId }, [viewer.id])).toContain(
      'Subscribed',
    );
    expect(await reply('track', 'add', { player, channel: world.channelId }, [viewer.id])).toContain(
      'Now following',
    );
    expect(
      await reply('alert', 'add', { skin: skin(), direction: 'below', price: 10, channel: world.channelId }, [
        viewer.id,
      ]),
    ).toContain('Price alert set');
  });

  it('refuses a ping role that is not mentionable when the caller may not mention every role there', async () => {
    const { world } = fixture;
    const process = await fixture.start({ commands: true });
    const ping = world.discord.addRole(world.guildId, { name: 'pinged' });
    const mentioner = world.discord.addRole(world.guildId, {
      name: 'mentioners',
      permissions: PermissionFlagsBits.MentionEveryone,
    });
    await roleSeen(process, ping.id);
    await roleSeen(process, mentioner.id);
    const player = world.sandbox.world.samples.rankedPlayer;
    const refusedSubscribe = await reply('subscribe', 'maps', { channel: world.channelId, role: ping.id });
    const refusedTrack = await reply('track', 'add', { player, channel: world.channelId, role: ping.id });
    for (const answer of [refusedSubscribe, refusedTrack]) {
      expect(answer).toContain(`You may not ping <@&${ping.id}> in <#${world.channelId}>`);
    }
    expect(await world.repos.subscriptions.forGuild(world.guildId)).toEqual([]);
    // With Mention @everyone there, they may.
    expect(
      await reply('subscribe', 'maps', { channel: world.channelId, role: ping.id }, [mentioner.id]),
    ).toContain('Subscribed');
    expect(
      await reply('track', 'add', { player, channel: world.channelId, role: ping.id }, [mentioner.id]),
    ).toContain('Now following');
  });
});

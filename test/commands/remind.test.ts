import { Events, PermissionFlagsBits, type APIButtonComponent } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { command as remind } from '../../commands/remind.ts';
import { REMIND_FIRST_SLOT } from '../../src/features/turf/reminders/model.ts';
import type { MessageRecord } from '../../src/dev/standin/index.ts';
import { turfDayDate } from '../../src/api/turf-days.ts';
import { HOSTILE } from '../support/render.ts';
import {
  commandOptions,
  posted,
  routeCommands,
  cached,
  useWorldPerTest,
  type OptionValue,
  type Process,
} from '../support/announcements.ts';
import { clanSources, toTime } from '../features/support.ts';

/**
 * `/remind turf|list|remove` through the real discord.js client and the stand-in: Manage Server, the
 * caller's right to ping the role, the clan's exact name with "did you mean", the server's limit.
 */
routeCommands(remind);
const fixture = useWorldPerTest();
const MANAGER =
  PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;
const CALLER = '300000000000000042';

function run(
  sub: string,
  values: Record<string, OptionValue> = {},
  memberRoles: string[] = [],
  memberPermissions: bigint = MANAGER,
): Promise<MessageRecord> {
  const { world } = fixture;
  return world.discord
    .invokeCommand({
      name: 'remind',
      guildId: world.guildId,
      channelId: world.channelId,
      options: commandOptions('remind', sub, values),
      user: { id: CALLER, username: 'caller' },
      memberPermissions,
      memberRoles,
    })
    .final();
}

function textOf(message: MessageRecord): string {
  return [
    message.content,
    ...message.embeds.flatMap((e) => [
      e.title,
      e.description,
      ...(e.fields ?? []).map((f) => `${f.name}\n${f.value}`),
    ]),
  ]
    .filter(Boolean)
    .join('\n');
}

async function roleSeen(process: Process, roleId: string): Promise<void> {
  await cached(
    process.client,
    () => process.client.guilds.cache.get(fixture.world.guildId)?.roles.cache.has(roleId) === true,
    [Events.GuildRoleCreate],
  );
}

describe('/remind', () => {
  it('is offered to managers in servers only, and checks Manage Server again when run', async () => {
    expect(remind.data.default_member_permissions).toBe(PermissionFlagsBits.ManageGuild.toString());
    expect(remind.data.contexts).toEqual([0]);
    await fixture.start({ commands: true });
    const refused = await run('list', {}, [], PermissionFlagsBits.ViewChannel);
    expect(textOf(refused)).toContain('Only members with the **Manage Server** permission');
  });

  it('sets a reminder where it is run, lists it, changes its role and removes it', async () => {
    const { world } = fixture;
    const bot = await fixture.start({ commands: true });
    const set = await run('turf', { clan: 'Vortex', before: 60 });
    const id = /Reminder `([a-z0-9]+)` is set\./.exec(textOf(set))?.[1];
    expect(id).toBeDefined();
    expect(textOf(set)).toContain(`**Vortex** · 60 min before the day ends · in <#${world.channelId}>`);
    expect(textOf(set)).toContain('Pings nobody');
    const [stored] = await world.repos.subscriptions.forGuild(world.guildId);
    expect(stored).toMatchObject({ id, kind: 'remind', options: { clanName: 'Vortex', before: 60 } });
    expect(stored!.slot).toBeGreaterThanOrEqual(REMIND_FIRST_SLOT);

    const listed = await run('list');
    expect(listed.embeds[0]?.title).toBe('Turf reminders (1 of 25)');
    expect(textOf(listed)).toContain('Not posted yet');

    // The same clan, minutes and channel again: the same reminder, its role changed.
    const mentioner = world.discord.addRole(world.guildId, {
      name: 'mentioners',
      permissions: PermissionFlagsBits.MentionEveryone,
    });
    await roleSeen(bot, mentioner.id);
    const updated = await run('turf', { clan: 'Vortex', before: 60, role: mentioner.id }, [mentioner.id]);
    expect(textOf(updated)).toContain(`Reminder \`${id}\` is updated.`);
    expect(textOf(updated)).toContain(`Pings <@&${mentioner.id}>`);
    expect(await world.repos.subscriptions.forGuild(world.guildId)).toHaveLength(1);

    const removed = await run('remove', { id: id!.toUpperCase() });
    expect(textOf(removed)).toContain(`Reminder \`${id}\` for **Vortex** is removed.`);
    expect(await world.repos.subscriptions.forGuild(world.guildId)).toEqual([]);
    const missing = await run('remove', { id: id! });
    expect(textOf(missing)).toContain(`This server has no turf reminder with the id ${id}`);
  });

  it('pings only a role the caller may mention, and only that role when it posts', async () => {
    const { world } = fixture;
    const process = await fixture.start({ commands: true, sources: clanSources });
    const ping = world.discord.addRole(world.guildId, { name: 'turf-squad' });
    const mentioner = world.discord.addRole(world.guildId, {
      name: 'mentioners',
      permissions: PermissionFlagsBits.MentionEveryone,
    });
    await roleSeen(process, ping.id);
    await roleSeen(process, mentioner.id);
    // The role is not mentionable and the caller may not mention every role there: refused.
    const refused = await run('turf', { clan: 'Vortex', before: 60, role: ping.id });
    expect(textOf(refused)).toContain(`You may not ping <@&${ping.id}> in <#${world.channelId}>`);
    expect(await world.repos.subscriptions.forGuild(world.guildId)).toEqual([]);
    // The everyone role is never pinged this way.
    const everyone = await run('turf', { clan: 'Vortex', before: 60, role: world.guildId }, [mentioner.id]);
    expect(textOf(everyone)).toContain('the everyone role cannot be pinged');

    const set = await run('turf', { clan: 'Vortex', before: 60, role: ping.id }, [mentioner.id]);
    expect(textOf(set)).toContain('is set.');

    // At its minute the post pings that role and nothing else, whatever its text holds.
    await toTime(world.clock, turfDayDate(250) - 60 * 60_000);
    await process.announcements.pollOnce();
    const [post] = posted(world);
    expect(post?.content).toBe(`<@&${ping.id}>`);
    expect(post?.allowedMentions).toEqual({ parse: [], roles: [ping.id] });
  });

  it('answers a clan the game does not know with close names, each a button that sets the reminder', async () => {
    const { world } = fixture;
    await fixture.start({ commands: true });
    // A clan seen once (its name is known to the bot) ...
    await run('turf', { clan: 'Vortex', before: 90 });
    const missing = await run('turf', { clan: 'Vortx', before: 30 });
    expect(textOf(missing)).toContain('No clan named `Vortx`. Clan names are exact');
    expect(textOf(missing)).toContain('Did you mean one of these?');
    const button = missing.components
      .flatMap((row) => ('components' in row ? row.components : []) as APIButtonComponent[])
      .find((b) => 'label' in b && b.label === 'Vortex');
    expect(button).toBeDefined();
    const customId = 'custom_id' in button! ? button.custom_id : '';
    const clicked = await world.discord
      .clickButton(missing, customId, { user: { id: CALLER }, memberPermissions: MANAGER })
      .final();
    expect(textOf(clicked)).toMatch(/Reminder `[a-z0-9]+` is set\./);
    expect(textOf(clicked)).toContain('**Vortex** · 30 min before the day ends');
    expect(await world.repos.subscriptions.forGuild(world.guildId)).toHaveLength(2);
    // A hostile name that is no clan is shown as data: inside inline code, where nothing renders.
    const hostile = await run('turf', { clan: HOSTILE, before: 30 });
    expect(hostile.embeds[0]?.description).toContain(`No clan named \`${HOSTILE}\`.`);
    expect(hostile.content).toBe('');
  });

  it('keeps a server to 25 reminders', async () => {
    const { world } = fixture;
    await fixture.start({ commands: true });
    for (let before = 5; before < 30; before += 1)
      expect(textOf(await run('turf', { clan: 'Vortex', before }))).toContain('is set.');
    const refused = await run('turf', { clan: 'Vortex', before: 30 });
    expect(textOf(refused)).toContain('This server already has 25 turf reminders.');
    expect(await world.repos.subscriptions.forGuild(world.guildId)).toHaveLength(25);
    // They are not /subscribe's: its 25 places stay free.
    const list = await run('list');
    expect(list.embeds[0]?.title).toBe('Turf reminders (25 of 25)');
  }, 60_000);
});

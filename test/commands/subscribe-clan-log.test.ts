import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clanLogSource } from '../../src/features/clans/log/source.ts';
import { text } from '../../src/render/common.ts';
import { checkMessageLimits } from '../../src/render/text.ts';
import {
  drive,
  invoke,
  startProcess,
  startWorld,
  type Process,
  type World,
} from '../support/announcements.ts';

/**
 * `/subscribe clan-log` and what `/subscriptions` says of a clan log (its interval really kept, its pause),
 * through the real discord.js client, the stand-in and the sandbox.
 */
let world: World;
let bot: Process;
const MANAGER =
  PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;
const FIVE_MINUTES = 5 * 60_000;

beforeAll(async () => {
  world = await startWorld();
  bot = await startProcess(world, {
    sources: (services) => [clanLogSource(services.config, services.demand)],
  });
});

afterAll(async () => {
  await bot.stop();
  await world.close();
});

beforeEach(async () => {
  for (const subscription of await world.repos.subscriptions.all())
    await world.repos.subscriptions.delete(subscription.id);
});

async function run(name: string, sub: string | undefined, values: Record<string, string | number> = {}) {
  const reply = await invoke(world, name, sub, values, { memberPermissions: MANAGER }).final();
  expect(checkMessageLimits({ content: reply.content, embeds: reply.embeds })).toEqual([]);
  const embed = reply.embeds[0];
  return [embed?.title, embed?.description, ...(embed?.fields ?? []).flatMap((f) => [f.name, f.value])].join(
    '\n',
  );
}

function clanNamed(name: string) {
  const clan = world.sandbox.world.clans.find((c) => c.name === name);
  if (!clan) throw new Error(`no clan ${name}`);
  return clan;
}

describe('/subscribe clan-log', () => {
  it('follows a clan with the events and milestone chosen', async () => {
    const reply = await run('subscribe', 'clan-log', {
      channel: world.channelId,
      clan: 'NoScope',
      events: 'all',
      milestone: 50_000,
    });
    expect(reply).toContain("will post the clan's roster changes.");
    expect(reply).toContain(
      'Clan NoScope: joins, leaves, roles and owner, score milestones from 50,000, its rank and member count',
    );
    const [stored] = await world.repos.subscriptions.forGuild(world.guildId);
    expect(stored).toMatchObject({
      kind: 'clan-log',
      options: { clanId: clanNamed('NoScope').id, clanName: 'NoScope', events: 'all', milestone: 50_000 },
    });

    // The same channel and clan again: the subscription is updated, not doubled; a milestone without
    // milestone events is not kept.
    const again = await run('subscribe', 'clan-log', {
      channel: world.channelId,
      clan: 'NoScope',
      events: 'roster',
      milestone: 50_000,
    });
    expect(again).toContain('Subscription updated');
    const all = await world.repos.subscriptions.forGuild(world.guildId);
    expect(all).toHaveLength(1);
    expect(all[0]?.options).toEqual({
      clanId: clanNamed('NoScope').id,
      clanName: 'NoScope',
      events: 'roster',
    });
  });

  it('shows a hostile clan name as text', async () => {
    const hostile = '*_~|Ghosts|~_*';
    const reply = await run('subscribe', 'clan-log', { channel: world.channelId, clan: hostile });
    expect(reply).toContain(`Clan ${text(hostile, 64)}: joins, leaves, roles and owner`);
  });

  it('says clan names are exact, and offers the names seen that come close', async () => {
    const missing = await run('subscribe', 'clan-log', { channel: world.channelId, clan: 'Nobody Clan' });
    expect(missing).toContain(
      'There is no clan named Nobody Clan. Clan names must match exactly, capitals included.',
    );
    // NoScope was seen by the first test (the bot remembers the names it met).
    const close = await run('subscribe', 'clan-log', { channel: world.channelId, clan: 'NoScop' });
    expect(close).toContain('Did you mean: NoScope?');
    expect(await world.repos.subscriptions.forGuild(world.guildId)).toEqual([]);
  });
});

describe('/subscriptions with a clan log', () => {
  it('shows the interval planned, then the one really kept, then the pause when the clan is gone', async () => {
    await run('subscribe', 'clan-log', { channel: world.channelId, clan: 'Empire' });
    expect(await run('subscriptions', undefined)).toContain('Roster read every 5m; not read yet');

    await drive(world.clock, bot.announcements.pollOnce());
    expect(await run('subscriptions', undefined)).toMatch(/Roster read every 5m; first read <t:\d+:R>/);
    await world.clock.advance(FIVE_MINUTES + 30_000);
    await drive(world.clock, bot.announcements.pollOnce());
    expect(await run('subscriptions', undefined)).toMatch(
      /Roster read every 5m \(planned now: 5m\); last read <t:\d+:R>/,
    );

    world.sandbox.faults.inject({
      match: `/clans/${clanNamed('Empire').id}/profile`,
      kind: 'status',
      status: 404,
      times: 1,
    });
    await world.clock.advance(FIVE_MINUTES);
    await drive(world.clock, bot.announcements.pollOnce());
    const listed = await run('subscriptions', undefined);
    expect(listed).toContain(
      "the clan's roster can no longer be read (deleted or renamed): run /subscribe clan-log again with its current name",
    );

    // Subscribing again resumes it (from now on).
    expect(await run('subscribe', 'clan-log', { channel: world.channelId, clan: 'Empire' })).toContain(
      'Subscription updated',
    );
    const [resumed] = await world.repos.subscriptions.forGuild(world.guildId);
    expect(resumed?.state).toEqual({ status: 'active' });
  });
});

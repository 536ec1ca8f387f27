import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../../../src/announcements/model.ts';
import { ReminderRuns } from '../../../../src/features/turf/reminders/runs.ts';
import { turfDayDate } from '../../../../src/api/turf-days.ts';
import { escapeMarkdown } from '../../../../src/render/text.ts';
import { jumpWallClock } from '../../../support/clock.ts';
import {
  crashAfterFirstSend,
  posted,
  subscribeDirectly,
  useWorldPerTest,
  type World,
} from '../../../support/announcements.ts';
import { clanNamed, clanSources, titles, toTime } from '../../support.ts';

/**
 * Turf reminders through the worker's pipeline on a manual clock: the world starts at 12:00 UTC of turf
 * day 249 (2026-11-21), whose turf day ends at midnight UTC.
 */
const fixture = useWorldPerTest();
const MINUTE = 60_000;
const END_249 = turfDayDate(250);
const END_250 = turfDayDate(251);
const SOON = /ends soon|endet bald/;

async function remind(
  world: World,
  clanName: string,
  before: number,
  extra: { roleId?: string; channelId?: string; guildId?: string; locale?: string } = {},
): Promise<Subscription> {
  const clan = clanNamed(world, clanName);
  return subscribeDirectly(world, {
    kind: 'remind',
    channelId: extra.channelId ?? world.channelId,
    ...(extra.guildId ? { guildId: extra.guildId } : {}),
    ...(extra.locale ? { locale: extra.locale } : {}),
    options: {
      clanId: clan.id,
      clanName: clan.name,
      before,
      ...(extra.roleId ? { roleId: extra.roleId } : {}),
    },
  });
}

describe('turf reminders', () => {
  it('post at their minute before the UTC day ends, pinging only their role, in the server’s language', async () => {
    const { world } = fixture;
    const role = world.discord.addRole(world.guildId, { name: 'turf-squad' });
    const german = world.discord.addGuild({ name: 'Clanhaus', preferredLocale: 'de' });
    const revier = world.discord.addChannel(german.id, { name: 'revier' }).id;
    await remind(world, 'Vortex', 60, { roleId: role.id });
    await remind(world, 'Vortex', 5, { guildId: german.id, channelId: revier, locale: 'de' });
    const process = await fixture.start({ sources: clanSources });
    await process.announcements.pollOnce();

    await toTime(world.clock, END_249 - 60 * MINUTE - 1_000);
    await process.announcements.pollOnce();
    expect(posted(world)).toEqual([]);

    await toTime(world.clock, END_249 - 60 * MINUTE);
    await process.announcements.pollOnce();
    const [english] = posted(world);
    expect(english?.embeds[0]?.title).toBe('Vortex: turf day 249 (Nov 21) ends soon');
    expect(english?.content).toBe(`<@&${role.id}>`);
    expect(english?.allowedMentions).toEqual({ parse: [], roles: [role.id] });
    expect(posted(world, revier)).toEqual([]);

    // Each map's standing, as the turf status shows it now.
    const status = await process.api.call('turfStatus', {}, { fresh: true });
    const vortex = clanNamed(world, 'Vortex').id;
    const fields = english?.embeds[0]?.fields ?? [];
    expect(fields.map((f) => f.name.replace('👑 ', ''))).toEqual(['Burg', 'Sandstorm', 'Subzero']);
    for (const [index, map] of status.maps.entries()) {
      const value = fields[index]?.value ?? '';
      const top = [...(map.top_clans ?? [])].sort((a, b) => (b.points ?? 0) - (a.points ?? 0));
      const leader = top[0]!;
      if (leader.clan_id === vortex) expect(value).toContain('Leading today with');
      else expect(value).toContain(`**${escapeMarkdown(leader.clan_name)}**`);
      const own = top.find((c) => c.clan_id === vortex);
      if (own && leader.clan_id !== vortex)
        expect(value).toContain(`**${(leader.points! - own.points!).toLocaleString('en-US')}** behind`);
      if (map.owner?.clan_id === vortex) expect(value).toContain('Held by your clan');
    }

    await toTime(world.clock, END_249 - 5 * MINUTE);
    await process.announcements.pollOnce();
    const [deutsch] = posted(world, revier);
    expect(deutsch?.embeds[0]?.title).toBe('Vortex: Reviertag 249 (21. Nov.) endet bald');
    expect(deutsch?.content).toBe('');
    expect(deutsch?.allowedMentions).toEqual({ parse: [], roles: [] });

    // Once a day: later polls post nothing, the next day's minute posts again (after midnight UTC).
    await toTime(world.clock, END_249 - 2 * MINUTE);
    await process.announcements.pollOnce();
    await toTime(world.clock, END_249 + MINUTE);
    await process.announcements.pollOnce();
    expect(titles(world, world.channelId, SOON)).toHaveLength(1);
    await toTime(world.clock, END_250 - 60 * MINUTE);
    await process.announcements.pollOnce();
    expect(titles(world, world.channelId, SOON)).toEqual([
      'Vortex: turf day 249 (Nov 21) ends soon',
      'Vortex: turf day 250 (Nov 22) ends soon',
    ]);
    expect(titles(world, revier, SOON)).toHaveLength(1);
  });

  it('posts once across a crash, late until the day ends, and records a day that ended unposted as missed', async () => {
    const { world } = fixture;
    const evening = await remind(world, 'Vortex', 60);
    const afternoon = await remind(world, 'Frostbite', 600, { channelId: world.addChannel('frost') });
    const first = await fixture.start({ sources: clanSources });
    await first.announcements.pollOnce();
    await first.stop();

    // Down at 14:00 and 23:00; back at 23:30, killed just after Discord took the first reminder.
    await toTime(world.clock, END_249 - 30 * MINUTE);
    await crashAfterFirstSend(fixture, { sources: clanSources }, 'remind:');
    const wall = jumpWallClock(250);
    try {
      const restarted = await fixture.start({ sources: clanSources });
      await restarted.announcements.pollOnce();
      await restarted.announcements.pollOnce();
      await restarted.stop();
    } finally {
      wall.restore();
    }
    const late = posted(world).filter((m) => SOON.test(m.embeds[0]?.title ?? ''));
    expect(late).toHaveLength(1);
    expect(late[0]?.embeds[0]?.description).toContain('posted late, the bot was not running then');
    expect(titles(world, afternoon.channelId, SOON)).toEqual(['Frostbite: turf day 249 (Nov 21) ends soon']);
    expect(await world.repos.inbox.pending()).toEqual([]);

    // Down for the whole of day 250 from its reminders' minutes on: nothing posted, both recorded missed.
    await toTime(world.clock, END_250 + 5 * MINUTE);
    const later = await fixture.start({ sources: clanSources });
    await later.announcements.pollOnce();
    expect(titles(world, world.channelId, /turf day 250/)).toEqual([]);
    const runs = await new ReminderRuns(world.db).latest([evening.id, afternoon.id]);
    expect(runs.get(evening.id)).toMatchObject({ day: 250, status: 'missed' });
    expect(runs.get(afternoon.id)).toMatchObject({ day: 250, status: 'missed' });
  });

  it('reads the standing once per poll for every reminder due, whatever the servers and clans', async () => {
    const { world } = fixture;
    const guild = world.discord.addGuild({ name: 'Elsewhere' });
    const elsewhere = world.discord.addChannel(guild.id, { name: 'turf' }).id;
    await remind(world, 'Vortex', 30);
    await remind(world, 'Vortex', 30, { guildId: guild.id, channelId: elsewhere });
    await remind(world, 'Frostbite', 30, { channelId: world.addChannel('frost') });
    const process = await fixture.start({ sources: clanSources });
    await toTime(world.clock, END_249 - 30 * MINUTE);
    world.sandbox.requests.clear();
    await process.announcements.pollOnce();
    expect(world.sandbox.requests.count('/territorial-wars/status')).toBe(1);
    // Today's board, and at most one board per turf map.
    expect(
      world.sandbox.requests.count('/territorial-wars/leaderboards/top-performing-clans'),
    ).toBeLessThanOrEqual(4);
    expect(world.sandbox.requests.count()).toBeLessThanOrEqual(5);
    expect(titles(world, world.channelId, SOON)).toHaveLength(1);
    expect(titles(world, elsewhere, SOON)).toHaveLength(1);
  });

  it('waits for the next day when made after its minute', async () => {
    const { world } = fixture;
    const process = await fixture.start({ sources: clanSources });
    await toTime(world.clock, END_249 - 30 * MINUTE);
    await remind(world, 'Vortex', 60);
    await process.announcements.pollOnce();
    expect(posted(world)).toEqual([]);
    await toTime(world.clock, END_250 - 60 * MINUTE);
    await process.announcements.pollOnce();
    expect(titles(world, world.channelId, SOON)).toEqual(['Vortex: turf day 250 (Nov 22) ends soon']);
  });
});

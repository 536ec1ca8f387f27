import { describe, expect, it } from 'vitest';
import { DIGEST_DELAY_MS } from '../../../../src/features/turf/digest/model.ts';
import { TURF_CLAN_READS_SCOPE, turfReadsBudget } from '../../../../src/features/turf/digest/reads.ts';
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
 * The daily digest through the worker's real pipeline (sandbox → digest source → inbox → outbox → Discord
 * stand-in) on a manual clock. The world starts at 12:00 UTC of turf day 249 (2026-11-21); the sandbox's
 * standings of a day grow while it lasts and are final once it has ended.
 */
const fixture = useWorldPerTest();
const HOUR = 3_600_000;
const DAY_249_END = turfDayDate(250);
const DIGEST = /turf day 249|Reviertag 249/;

async function followWithDigest(
  world: World,
  clanName: string,
  extra: { channelId?: string; guildId?: string; locale?: string; idle?: boolean; digest?: boolean } = {},
) {
  const clan = clanNamed(world, clanName);
  return subscribeDirectly(world, {
    kind: 'turf',
    channelId: extra.channelId ?? world.channelId,
    ...(extra.guildId ? { guildId: extra.guildId } : {}),
    ...(extra.locale ? { locale: extra.locale } : {}),
    options: {
      clanId: clan.id,
      clanName: clan.name,
      ...(extra.digest === false ? {} : { digest: 1 }),
      ...(extra.idle ? { idle: 1 } : {}),
    },
  });
}

describe('the daily turf digest', () => {
  it('posts each clan’s digest once, just after the UTC day ends, in each server’s language', async () => {
    const { world } = fixture;
    const german = world.discord.addGuild({ name: 'Clanhaus', preferredLocale: 'de' });
    const revier = world.discord.addChannel(german.id, { name: 'revier' }).id;
    const plain = world.addChannel('plain');
    const vortex = clanNamed(world, 'Vortex');
    await followWithDigest(world, 'Vortex');
    await followWithDigest(world, 'Vortex', {
      guildId: german.id,
      channelId: revier,
      locale: 'de',
      idle: true,
    });
    await followWithDigest(world, 'Vortex', { channelId: plain, digest: false });
    const process = await fixture.start({ sources: clanSources });
    await process.announcements.pollOnce();

    // A second before midnight, and a minute after it: no digest yet (the game settles payouts first).
    await toTime(world.clock, DAY_249_END - 1_000);
    await process.announcements.pollOnce();
    await toTime(world.clock, DAY_249_END + 60_000);
    await process.announcements.pollOnce();
    expect(titles(world, world.channelId, DIGEST)).toEqual([]);
    expect(titles(world, revier, DIGEST)).toEqual([]);

    await toTime(world.clock, DAY_249_END + DIGEST_DELAY_MS);
    await process.announcements.pollOnce();
    expect(titles(world, world.channelId, DIGEST)).toEqual(['Vortex: turf day 249 (Nov 21)']);
    expect(titles(world, revier, DIGEST)).toEqual(['Vortex: Reviertag 249 (21. Nov.)']);

    // What the game says of the day, read back through the API.
    const clanId = vortex.id;
    const players = (await process.api.call('turfClanPlayers', { clanId, day: 249 })).players;
    const kr = (await process.api.call('turfClanEarnings', { clanId })).days.find((d) => d.day === 249)?.kr;
    const english = posted(world).find((m) => DIGEST.test(m.embeds[0]?.title ?? ''))!.embeds[0]!;
    const best = [...players].sort((a, b) => (b.points ?? 0) - (a.points ?? 0))[0]!;
    expect(english.fields?.[0]?.name).toBe('Top contributors');
    expect(english.fields?.[0]?.value.split('\n')[0]).toBe(
      `1. **${escapeMarkdown(best.player_name!)}**: ${best.points!.toLocaleString('en-US')} points · ` +
        `${best.kills!.toLocaleString('en-US')} K / ${best.deaths!.toLocaleString('en-US')} D`,
    );
    expect(english.description).toContain(
      (kr ?? 0) > 0 ? `Earned **${kr!.toLocaleString('en-US')} KR**.` : 'No KR earned.',
    );
    expect(english.fields?.map((f) => f.name)).toEqual(['Top contributors', 'Payouts']);

    // The German channel asked for the members who scored nothing: the roster less the day's players.
    const german249 = posted(world, revier).find((m) => DIGEST.test(m.embeds[0]?.title ?? ''))!.embeds[0]!;
    expect(german249.fields?.map((f) => f.name)).toEqual(['Beste Mitspieler', 'Auszahlungen', 'Ohne Punkte']);
    const scored = new Set(players.filter((p) => (p.points ?? 0) > 0).map((p) => p.player_name));
    const idle = vortex.members.map((m) => m.playerName).filter((name) => !scored.has(name));
    expect(german249.fields?.[2]?.value).toContain(
      `${idle.length} von ${vortex.members.length} Mitgliedern haben keine Punkte erzielt:`,
    );
    for (const name of idle) expect(german249.fields?.[2]?.value).toContain(escapeMarkdown(name));

    // The digest carries the day's KR: those channels get no separate earnings line; the plain one does.
    expect(titles(world, world.channelId, /turf earnings of day/)).toEqual([]);
    expect(titles(world, plain, /turf earnings of day/)).toEqual(['Vortex: turf earnings of day 249']);
    expect(titles(world, plain, DIGEST)).toEqual([]);

    // Later polls of the same day post nothing more.
    await toTime(world.clock, DAY_249_END + 3 * HOUR);
    await process.announcements.pollOnce();
    expect(titles(world, world.channelId, DIGEST)).toHaveLength(1);
    expect(titles(world, revier, DIGEST)).toHaveLength(1);
  });

  it('reads a clan followed by several servers once, from the turf clan reads’ budget', async () => {
    const { world } = fixture;
    const others = [world.addChannel('two'), world.addChannel('three')];
    const guild = world.discord.addGuild({ name: 'Elsewhere' });
    const elsewhere = world.discord.addChannel(guild.id, { name: 'turf' }).id;
    await followWithDigest(world, 'Vortex', { idle: true });
    for (const channelId of others) await followWithDigest(world, 'Vortex', { channelId });
    await followWithDigest(world, 'Vortex', { guildId: guild.id, channelId: elsewhere });
    const process = await fixture.start({ sources: clanSources });
    await toTime(world.clock, DAY_249_END + DIGEST_DELAY_MS);
    world.sandbox.requests.clear();
    await process.announcements.pollOnce();
    const clanId = clanNamed(world, 'Vortex').id;
    for (const path of ['players', 'payouts', 'earnings'])
      expect(world.sandbox.requests.count(`/territorial-wars/clan/${clanId}/${path}`), path).toBe(1);
    expect(world.sandbox.requests.count(`/clans/${clanId}/profile`)).toBe(1);
    expect(world.sandbox.requests.count('/territorial-wars/leaderboards/top-performing-clans')).toBe(1);
    for (const channelId of [world.channelId, ...others, elsewhere])
      expect(titles(world, channelId, DIGEST), channelId).toHaveLength(1);
    // Those five reads were counted in the one budget the digest and the reminders share.
    const recent = await turfReadsBudget(world.limits, world.clock).recent();
    expect(TURF_CLAN_READS_SCOPE).toBe('turf-clan-reads');
    expect(recent).toHaveLength(5);
  });

  it('posts once across a crash and a restart, late when the bot was down at midnight, and skips a day gone by', async () => {
    const { world } = fixture;
    await followWithDigest(world, 'Vortex');
    const first = await fixture.start({ sources: clanSources });
    await first.announcements.pollOnce();
    await first.stop();

    // Down over midnight; back at 15:00 UTC of day 250, and killed right after Discord took the post.
    await toTime(world.clock, DAY_249_END + 15 * HOUR);
    await crashAfterFirstSend(fixture, { sources: clanSources }, 'turf-digest:');
    expect(titles(world, world.channelId, DIGEST)).toHaveLength(1);

    // Its delivery claim expires (wall clock); the restarted bot finishes the delivery with the same nonce.
    const wall = jumpWallClock(250);
    try {
      const restarted = await fixture.start({ sources: clanSources });
      await restarted.announcements.pollOnce();
      await restarted.announcements.pollOnce();
      await restarted.stop();
    } finally {
      wall.restore();
    }
    expect(titles(world, world.channelId, DIGEST)).toEqual(['Vortex: turf day 249 (Nov 21)']);
    expect(await world.repos.inbox.pending()).toEqual([]);

    // Down from then until just after day 251 ended: day 250's digest is not made any more, day 251's is.
    await toTime(world.clock, turfDayDate(252) + DIGEST_DELAY_MS + 60_000);
    const later = await fixture.start({ sources: clanSources });
    await later.announcements.pollOnce();
    expect(titles(world, world.channelId, /turf day \d+/)).toEqual([
      'Vortex: turf day 249 (Nov 21)',
      'Vortex: turf day 251 (Nov 23)',
    ]);
  });

  it('gives a channel subscribed after the day ended nothing of that day', async () => {
    const { world } = fixture;
    const process = await fixture.start({ sources: clanSources });
    await toTime(world.clock, DAY_249_END + 60_000);
    await followWithDigest(world, 'Vortex');
    await toTime(world.clock, DAY_249_END + DIGEST_DELAY_MS + 60_000);
    world.sandbox.requests.clear();
    await process.announcements.pollOnce();
    expect(titles(world, world.channelId, DIGEST)).toEqual([]);
    // Nothing was read for it either.
    expect(world.sandbox.requests.count('/territorial-wars/leaderboards/top-performing-clans')).toBe(0);
  });
});

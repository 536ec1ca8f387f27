import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, SnapshotStore } from '../../../src/players/snapshots.ts';
import { statsOf } from '../../../src/players/stats.ts';
import { accountLinks } from '../../../src/players/accounts.ts';
import {
  commandOptions,
  useWorldPerTest,
  type OptionValue,
  routeCommands,
} from '../../support/announcements.ts';
import { command as playerCommand } from '../../../commands/player.ts';
import { command as serverCommand } from '../../../commands/server.ts';

import type { PlayerProfile } from '../../../src/api/schemas/index.ts';

/**
 * `/player history`, `/player compare`, the profile's changes and `/server leaderboard` through the
 * stand-in, on snapshots kept by the bot's own reads and written for the past.
 */
routeCommands(playerCommand, serverCommand);

const fixture = useWorldPerTest();
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

function run(
  name: string,
  sub: string,
  values: Record<string, OptionValue> = {},
  userId = '300000000000000001',
) {
  const { world } = fixture;
  return world.discord
    .invokeCommand({
      name,
      guildId: world.guildId,
      options: commandOptions(name, sub, values),
      user: { id: userId, username: `user${userId.slice(-3)}` },
    })
    .final();
}

async function profileOf(name: string): Promise<PlayerProfile> {
  const { world } = fixture;
  const base = world.config.game.baseUrl.replace(/\/+$/, '');
  const reply = await fetch(`${base}/api/player/${encodeURIComponent(name)}`, {
    headers: { [world.config.game.apiKeyHeader]: world.config.game.apiKey ?? '' },
  });
  return ((await reply.json()) as { data: PlayerProfile }).data;
}

/** Points of the past, as the background would have kept them: kills growing by `perDay` a day. */
async function keepPast(profile: PlayerProfile, days: number, perDay: number) {
  const store = new SnapshotStore(fixture.world.db);
  const now = fixture.world.clock.now();
  const stats = statsOf(profile);
  for (let day = days; day >= 1; day -= 1) {
    const kills = stats.kills - day * perDay;
    await store.capture({
      playerId: profile.player_id,
      playerName: profile.player_name,
      at: now - day * DAY_MS,
      stats: { ...stats, kills, deaths: Math.max(1, stats.deaths - day) },
    });
  }
}

/** Points kept `ago` ms before now (oldest first), kills `perHour` lower for each hour back. */
async function keepAt(profile: PlayerProfile, ago: readonly number[], perHour: number) {
  const store = new SnapshotStore(fixture.world.db);
  const now = fixture.world.clock.now();
  const stats = statsOf(profile);
  for (const ms of ago) {
    await store.capture({
      playerId: profile.player_id,
      playerName: profile.player_name,
      at: now - ms,
      stats: { ...stats, kills: stats.kills - (ms / HOUR_MS) * perHour },
    });
  }
}

describe('/player history', () => {
  it('draws what it has for a player seen for the first time, saying when the next measured point can come', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.player;
    const reply = await run('player', 'history', { name });
    // The one measured point (and the match history, test/features/history/first-day.test.ts).
    expect(reply.embeds[0]?.description).toMatch(/the next can come <t:\d+:R>/);
    expect(reply.embeds[0]?.footer?.text).toMatch(/^1 point measured \(snapshots\)/);
    expect(reply.attachments[0]?.filename).toBe('history.png');
  });

  it('draws a stat over the days kept, with the change over the period', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.rankedPlayer;
    await keepPast(await profileOf(name), 10, 7);
    const reply = await run('player', 'history', { name, stat: 'kills', days: 30 });
    const embed = reply.embeds[0];
    expect(embed?.title).toBe(`Kills of ${name}, last 30 days`);
    const fields = Object.fromEntries(
      (embed?.fields ?? []).map((f) => [f.name.replace(/ \(.*/, ''), f.value]),
    );
    expect(fields['Change']).toBe('+70');
    expect(reply.attachments[0]?.filename).toBe('history.png');
    expect(reply.attachments[0]?.bytes.subarray(0, 4)).toEqual(PNG);
  });
});

describe('/player profile', () => {
  it('shows the change since yesterday and last week beside the headline numbers', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.rankedPlayer;
    await keepPast(await profileOf(name), 8, 5);
    const reply = await run('player', 'profile', { name });
    const fields = Object.fromEntries((reply.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    // Kills, deaths and K/D stand on the first page, beside the headline numbers.
    const profile = await profileOf(name);
    expect(fields['Kills']).toBe(profile.kills?.toLocaleString('en-US'));
    expect(fields['Deaths']).toBe(profile.deaths?.toLocaleString('en-US'));
    expect(fields['K/D']).toBeDefined();
    expect(fields['Since yesterday']).toContain('Kills +5');
    expect(fields['Since last week']).toContain('Kills +35');
  });

  it('shows the change since the first point of today when none is kept of yesterday or last week', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.rankedPlayer;
    const profile = await profileOf(name);
    await keepAt(profile, [5 * HOUR_MS, 3 * HOUR_MS], 4);
    const reply = await run('player', 'profile', { name });
    const fields = Object.fromEntries((reply.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    const fiveHoursAgo = Math.floor((fixture.world.clock.now() - 5 * HOUR_MS) / 1000);
    expect(fields['Change']).toMatch(new RegExp(`^Since <t:${fiveHoursAgo}:R>: .*Kills \\+20`));
    expect(fields['Since yesterday']).toBeUndefined();
    expect(fields['Since last week']).toBeUndefined();
  });

  it('shows only the change since yesterday when last week is not kept, and not the one since today', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.rankedPlayer;
    const profile = await profileOf(name);
    await keepAt(profile, [DAY_MS + 2 * HOUR_MS, 5 * HOUR_MS], 3);
    const reply = await run('player', 'profile', { name });
    const fields = Object.fromEntries((reply.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Since yesterday']).toContain('Kills +78');
    expect(fields['Since last week']).toBeUndefined();
    expect(fields['Change']).toBeUndefined();
  });
});

describe('/player compare', () => {
  it('puts two players side by side, marks the better value, and overlays their K/D once both have history', async () => {
    await fixture.start({ commands: true });
    const { samples } = fixture.world.sandbox.world;
    const [a, b] = [samples.rankedPlayer, samples.player];
    const first = await run('player', 'compare', { a, b });
    expect(first.embeds[0]?.title).toBe(`${a} vs ${b}`);
    const marks = (first.embeds[0]?.fields ?? []).filter((f) => f.value.includes('✅'));
    expect(marks.length).toBeGreaterThan(0);
    // Before both have two measured points the chart is not the measured one.
    expect(first.embeds[0]?.footer?.text).not.toBe('K/D as measured by the bot (snapshots).');
    await keepPast(await profileOf(a), 5, 3);
    await keepPast(await profileOf(b), 5, 1);
    const second = await run('player', 'compare', { a, b });
    expect(second.attachments[0]?.filename).toBe('compare.png');
    expect(second.embeds[0]?.footer?.text).toBe('K/D as measured by the bot (snapshots).');
    const same = await run('player', 'compare', { a, b: a.toUpperCase() });
    expect(same.embeds[0]?.description).toMatch(/two different players/);
  });

  it('compares with the caller’s own linked account when b is left out', async () => {
    await fixture.start({ commands: true });
    const { samples } = fixture.world.sandbox.world;
    await accountLinks({ db: fixture.world.db }).set('300000000000000042', {
      playerName: samples.player,
      linkedAt: fixture.world.clock.now(),
    });
    const reply = await run('player', 'compare', { a: samples.rankedPlayer }, '300000000000000042');
    expect(reply.embeds[0]?.title).toBe(`${samples.rankedPlayer} vs ${samples.player}`);
  });
});

describe('/server leaderboard', () => {
  it('ranks the linked members seen here by their latest numbers, with no request upstream, and shows the caller off the page', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const store = new SnapshotStore(world.db);
    const links = accountLinks({ db: world.db });
    const now = world.clock.now();
    // 13 members with kill counts 10, 20, ... 130; the caller (the last) has the fewest.
    for (let i = 0; i < 13; i += 1) {
      const userId = `3000000000000001${String(i).padStart(2, '0')}`;
      const playerName = `Member${i}`;
      await links.set(userId, { playerName, linkedAt: now });
      await world.db.kysely
        .insertInto('guild_members')
        .values({ guild_id: world.guildId, user_id: userId, seen_at: now })
        .execute();
      await store.capture({
        playerId: 1000 + i,
        playerName,
        at: now - 1000,
        stats: {
          score: 0,
          kills: 130 - i * 10,
          deaths: 10,
          games: 1,
          wins: 0,
          level: 1,
          kr: 0,
          clan: '',
          ranked: [],
        },
      });
    }
    const before = world.sandbox.requests.entries().length;
    const reply = await run('server', 'leaderboard', { stat: 'kills' }, '300000000000000112');
    expect(world.sandbox.requests.entries().length).toBe(before);
    const lines = (reply.embeds[0]?.description ?? '').split('\n');
    expect(lines[0]).toBe('**#1** Member0 (<@300000000000000100>) · 130');
    expect(lines).toHaveLength(12); // 10 rows, a gap, the caller's own
    expect(lines.at(-1)).toBe('**#13** Member12 (<@300000000000000112>) · 10');
    expect(reply.allowedMentions?.parse ?? []).toEqual([]);
  });
});

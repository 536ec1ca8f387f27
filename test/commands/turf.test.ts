import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationCommandOptionType } from 'discord.js';
import { command as turfCommand } from '../../commands/turf.ts';
import type { MessageRecord } from '../../src/dev/standin/index.ts';
import {
  invoke,
  routeCommands,
  startProcess,
  startWorld,
  type Process,
  type World,
} from '../support/announcements.ts';
import { ManualClock } from '../support/clock.ts';

/**
 * `/turf` through the real bot, the Discord stand-in and the sandbox, on a manual clock the sandbox
 * shares (its turf standings grow through the day): the boards, paged, by date and map; payouts with
 * and without a day; the clan's members per map; names the game does not know.
 */
routeCommands(turfCommand);

const EPHEMERAL = 64;
const NOV_27_3PM = Date.UTC(2026, 10, 27, 15, 0, 0);
const TODAY = 255;
const clock = new ManualClock(NOV_27_3PM);
let world: World;
let bot: Process;

beforeAll(async () => {
  world = await startWorld({ clock });
  bot = await startProcess(world, { commands: true });
}, 60_000);
afterAll(async () => {
  await bot.stop();
  await world.close();
});

/** The sandbox's own answer (`data` of the envelope). */
async function api<T>(path: string): Promise<T> {
  const reply = await fetch(`${world.config.game.baseUrl.replace(/\/+$/, '')}${path}`);
  return ((await reply.json()) as { data: T }).data;
}

const run = (sub: string, values: Record<string, string | number> = {}, locale?: string) =>
  invoke(world, 'turf', sub, values, locale === undefined ? {} : { locale }).final();
const lines = (message: MessageRecord) => (message.embeds[0]?.description ?? '').split('\n');
const fields = (message: MessageRecord) =>
  Object.fromEntries((message.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
type Button = { custom_id?: string; label?: string; disabled?: boolean };
const buttonsOf = (message: MessageRecord) =>
  (message.components as Array<{ components?: Button[] }>).flatMap((row) => row.components ?? []);

interface ClanRow {
  clan_id: number;
  clan_name: string;
  points: number;
}

describe('/turf status', () => {
  it('shows the turf maps with their holders', async () => {
    const status = await run('status');
    expect(status.embeds[0]?.title).toBe('Turf wars');
    expect(status.embeds[0]?.footer?.text).toMatch(/^\d+ of \d+ maps held/);
  });
});

describe('/turf leaderboard', () => {
  it("pages the day's top clans, 25 at a time, as the game ranks them", async () => {
    const board = await api<{ rows: ClanRow[] }>(`/territorial-wars/leaderboards/top-performing-clans`);
    const first = await run('leaderboard', { board: 'clans' });
    expect(first.embeds[0]?.title).toBe('Turf · Top clans');
    expect(lines(first)[0]).toBe('Day 255 (Nov 27) · every map');
    expect(lines(first).slice(2)).toHaveLength(Math.min(25, board.rows.length));
    expect(lines(first)[2]).toContain(
      `**${board.rows[0]!.clan_name}** · ${board.rows[0]!.points.toLocaleString('en-US')} pts`,
    );
    expect(board.rows.length).toBeGreaterThan(25);
    const next = buttonsOf(first).find((b) => b.label === 'Next ▶');
    const second = await world.discord.clickButton(first, next?.custom_id ?? '').final();
    expect(lines(second)[2]).toContain(`**#26** **${board.rows[25]!.clan_name}**`);
    expect(buttonsOf(second).find((b) => b.label?.startsWith('Page'))?.label).toBe('Page 2 of 2');
  });

  it('takes the day as a date and the map by name', async () => {
    const day = TODAY - 7;
    const board = await api<{ rows: ClanRow[] }>(
      `/territorial-wars/leaderboards/top-performing-clans?day=${day}&map_id=3`,
    );
    const reply = await run('leaderboard', { board: 'clans', day: '2026-11-20', map: 3 });
    expect(lines(reply)[0]).toBe('Day 248 (Nov 20) · Subzero');
    const top = board.rows[0]!;
    expect(lines(reply)[2]).toContain(`**${top.clan_name}** · ${top.points.toLocaleString('en-US')} pts`);
    const players = await run('leaderboard', { board: 'players', day: '2026-11-20', map: 0 });
    expect(lines(players).slice(0, 2)).toEqual([
      'This season · Burg',
      'This board covers the whole season: the day does not apply to it.',
    ]);
    const grossing = await run('leaderboard', { board: 'grossing' });
    expect(grossing.embeds[0]?.title).toBe('Turf · Top-earning clans');
  });

  it('refuses a date before turf wars or still to come, and lets tomorrow in at UTC midnight', async () => {
    const early = await run('leaderboard', { board: 'clans', day: '2026-03-16' });
    expect(early.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(early.embeds[0]?.description).toBe(
      'Turf wars began on 2026-03-17: pick a date from then to 2026-11-27 (UTC).',
    );
    const midnight = Date.UTC(2026, 10, 28);
    try {
      clock.set(midnight - 1_000);
      const before = await run('leaderboard', { board: 'clans', day: '2026-11-28' });
      expect(before.embeds[0]?.description).toBe(
        'That date is still to come: turf days go up to today, 2026-11-27 (UTC).',
      );
      const german = await run('leaderboard', { board: 'clans', day: '2026-11-28' }, 'de');
      expect(german.embeds[0]?.description).toBe(
        'Dieses Datum liegt in der Zukunft: Reviertage gibt es bis heute, 2026-11-27 (UTC).',
      );
      clock.set(midnight + 30_000);
      const after = await run('leaderboard', { board: 'clans', day: '2026-11-28' });
      expect(after.flags & EPHEMERAL).toBe(0);
      expect(lines(after)[0]).toBe('Day 256 (Nov 28) · every map');
      const afterDe = await run('leaderboard', { board: 'clans' }, 'de');
      expect(lines(afterDe)[0]).toMatch(/^Tag 256 \(28\. Nov\.?\) · alle Karten$/);
    } finally {
      clock.set(NOV_27_3PM);
    }
  });

  it('offers recent dates as the day is typed', async () => {
    const pending = world.discord.autocomplete({
      name: 'turf',
      guildId: world.guildId,
      options: [
        {
          type: ApplicationCommandOptionType.Subcommand,
          name: 'leaderboard',
          options: [
            { type: ApplicationCommandOptionType.String, name: 'board', value: 'clans' },
            { type: ApplicationCommandOptionType.String, name: 'day', value: '2026-11-2', focused: true },
          ],
        },
      ],
    });
    const response = await pending.response();
    const choices = (response.data as { choices: Array<{ name: string; value: string }> }).choices;
    expect(choices.map((c) => c.value)).toEqual([
      '2026-11-27',
      '2026-11-26',
      '2026-11-25',
      '2026-11-24',
      '2026-11-23',
      '2026-11-22',
      '2026-11-21',
      '2026-11-20',
    ]);
    expect(choices[0]?.name).toBe('2026-11-27 · Day 255 (Nov 27) · today');
  });
});

describe('/turf payouts', () => {
  it("shows the season's totals without a day, and one day's payouts with one", async () => {
    const top = (
      await api<{ rows: Array<{ clan_id: number; clan_name: string }> }>(
        '/territorial-wars/leaderboards/top-grossing-clans',
      )
    ).rows[0]!;
    const season = await api<{ payouts: Array<{ player_name: string; kr: number }> }>(
      `/territorial-wars/clan/${top.clan_id}/payouts`,
    );
    const reply = await run('payouts', { clan: top.clan_name });
    expect(reply.embeds[0]?.title).toBe(`Turf payouts · ${top.clan_name}`);
    expect(lines(reply)[0]).toBe("This season's totals (every finished day)");
    const total = season.payouts.reduce((sum, p) => sum + p.kr, 0);
    expect(reply.embeds[0]?.footer?.text).toBe(
      `${total.toLocaleString('en-US')} KR paid to ${season.payouts.length} players`,
    );

    const earnings = await api<{ days: Array<{ day: number; kr: number }> }>(
      `/territorial-wars/clan/${top.clan_id}/earnings`,
    );
    const paid = earnings.days.find((d) => d.kr > 0)!;
    const date = new Date(Date.UTC(2026, 2, 17) + paid.day * 86_400_000).toISOString().slice(0, 10);
    const day = await api<{ payouts: Array<{ player_name: string; kr: number }> }>(
      `/territorial-wars/clan/${top.clan_id}/payouts?day=${paid.day}`,
    );
    const oneDay = await run('payouts', { clan: top.clan_name, day: date });
    expect(lines(oneDay)[0]).toMatch(new RegExp(`^Paid for Day ${paid.day} \\(`));
    const best = [...day.payouts].sort((a, b) => b.kr - a.kr)[0]!;
    expect(lines(oneDay)[2]).toBe(
      `🥇 **${best.player_name.replaceAll('_', '\\_')}** · ${best.kr.toLocaleString('en-US')} KR`,
    );

    const today = await run('payouts', { clan: top.clan_name, day: '2026-11-27' });
    expect(lines(today)[1]).toMatch(/^This day is still being played/);
  });
});

describe('/turf clan', () => {
  it("lists today's members on each map, and their figures grow as the day goes on", async () => {
    const clan = world.sandbox.world.samples.clan;
    const found = await api<{ clan_id: number }>(`/clans/by-name/${encodeURIComponent(clan)}`);
    const burg = await api<{
      players: Array<{ player_name: string; points: number; kills: number; deaths: number }>;
    }>(`/territorial-wars/clan/${found.clan_id}/players?map_id=0`);
    const reply = await run('clan', { name: clan });
    expect(reply.embeds[0]?.title).toBe(`Turf wars · ${clan}`);
    const maps = fields(reply);
    for (const map of ['Burg', 'Sandstorm', 'Subzero'])
      expect(maps[`${map} · Day 255 (Nov 27)`]).toBeDefined();
    const best = [...burg.players].sort((a, b) => b.points - a.points)[0];
    if (best) {
      expect(maps['Burg · Day 255 (Nov 27)']?.split('\n')[0]).toBe(
        `1. **${best.player_name.replaceAll('_', '\\_')}** · ${best.points.toLocaleString('en-US')} pts · ${best.kills} K / ${best.deaths} D`,
      );
    }
    const points = (message: MessageRecord) =>
      Object.entries(fields(message))
        .filter(([name]) => name.includes('· Day 255'))
        .flatMap(([, value]) =>
          [...value.matchAll(/· ([\d,]+) pts/g)].map((m) => Number(m[1]!.replace(/,/g, ''))),
        )
        .reduce((sum, n) => sum + n, 0);
    try {
      clock.set(Date.UTC(2026, 10, 27, 23, 30));
      const later = await run('clan', { name: clan });
      expect(points(later)).toBeGreaterThan(points(reply));
    } finally {
      clock.set(NOV_27_3PM);
    }
  });

  it('answers a clan the game does not know with "did you mean", whose button runs the command', async () => {
    const clan = world.sandbox.world.samples.clan;
    await run('leaderboard', { board: 'clans' });
    const missing = await run('clan', { name: clan.toLowerCase() });
    expect(missing.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(missing.embeds[0]?.title).toBe('Not found');
    expect(missing.embeds[0]?.description).toBe(
      `No clan named \`${clan.toLowerCase()}\`. Clan names are exact: capitals, spaces and symbols must match.\nDid you mean one of these?`,
    );
    const choice = buttonsOf(missing).find((b) => b.label === clan);
    expect(choice).toBeDefined();
    const shown = await world.discord.clickButton(missing, choice?.custom_id ?? '').final();
    expect(shown.embeds[0]?.title).toBe(`Turf wars · ${clan}`);

    const payouts = await run('payouts', { clan: 'NoSuchClanAnywhere', day: '2026-11-26' });
    expect(payouts.embeds[0]?.description).toMatch(
      /^No clan named `NoSuchClanAnywhere`\. Clan names are exact/,
    );
  });
});

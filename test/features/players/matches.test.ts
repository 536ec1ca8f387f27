import { describe, expect, it } from 'vitest';
import { parseMatchId } from '../../../commands/match.ts';
import type { MatchDetails, MatchParticipant } from '../../../src/api/schemas/index.ts';
import { UserError } from '../../../src/core/user-error.ts';
import { groupTeams, renderMatch, renderMatches } from '../../../src/features/players/matches.ts';
import { Colors } from '../../../src/render/payload.ts';
import { HOSTILE, expectSafe, fieldsOf, translators, useSandboxApi } from '../../support/render.ts';

const { en, pl } = translators;
const live = useSandboxApi({ rateLimit: { limit: 10_000, windowMs: 60_000 } });

function player(
  name: string,
  team: number,
  victory: number | undefined,
  extra: Partial<MatchParticipant> = {},
): MatchParticipant {
  return {
    player_name: name,
    team,
    ...(victory === undefined ? {} : { victory }),
    kills: 10,
    deaths: 5,
    assists: 2,
    score: 1500,
    damage_done: 2400,
    headshots: 3,
    accuracy: 37,
    objective_score: 120,
    rounds_won: victory === 1 ? 4 : 2,
    ...extra,
  };
}

describe('match', () => {
  it('renders a sandbox match: overview, then each team coloured by its result, ids kept exact', async () => {
    const id = live.sandbox.world.samples.matchId;
    const match = await live.client.api.match({ matchId: id });
    const maps = await live.client.api.officialMaps();
    const mapName = maps.find((map) => map.id === match.map)?.name;
    expect(mapName).toBeDefined();
    const payload = renderMatch(en, { match, mapName });
    expectSafe(payload);

    const [overview, ...teams] = payload.embeds ?? [];
    expect(BigInt(id)).toBeGreaterThan(2n ** 53n);
    expect(overview?.title).toBe(`Ranked match ${id}`);
    const fields = fieldsOf(payload);
    expect(fields['Map']).toBe(`${mapName} (#${match.map})`);
    expect(fields['Played']).toMatch(/^<t:\d+:f> \(<t:\d+:R>\)$/);
    expect(fields['Duration']).toMatch(/^\d+:\d{2}$/);
    expect(fields['Season']).toBe(en.n(match.season ?? -1));
    expect(fields['Region']).toMatch(/^(Asia|Europe|North America)$/);
    expect(fields['Players']).toBe('8');

    expect(teams).toHaveLength(2);
    const results = groupTeams(match.participants ?? []);
    teams.forEach((embed, i) => {
      const team = results[i];
      expect(embed.title).toContain(`Team ${team?.team}`);
      const lines = embed.description?.split('\n') ?? [];
      // Two lines per player, in the API's order.
      expect(lines).toHaveLength(2 * (team?.players.length ?? 0));
      team?.players.forEach((p, k) => {
        expect(lines[2 * k]?.startsWith(`**${p.player_name.replace(/_/g, '\\_')}** · `)).toBe(true);
        expect(lines[2 * k + 1]).toContain(`K/D/A ${p.kills}/${p.deaths}/${p.assists}`);
      });
    });
    const colors = teams.map((embed) => embed.color).sort();
    if (results.some((team) => team.result === 'win')) {
      expect(colors).toEqual([Colors.win, Colors.loss].sort());
      expect(teams.find((embed) => embed.color === Colors.win)?.title).toContain('Victory');
      expect(teams.find((embed) => embed.color === Colors.loss)?.title).toContain('Defeat');
    } else {
      expect(colors).toEqual([Colors.draw, Colors.draw]);
    }
  });

  it('shows a drawn sandbox match as a draw for both teams, in another locale', async () => {
    const drawn = live.sandbox.world.matches.find((m) => m.participants[0]?.result === -1);
    expect(drawn).toBeDefined();
    const match = await live.client.api.match({ matchId: drawn?.id ?? '' });
    const payload = renderMatch(pl, { match, mapName: undefined });
    expectSafe(payload);
    const [, ...teams] = payload.embeds ?? [];
    expect(teams.map((embed) => embed.color)).toEqual([Colors.draw, Colors.draw]);
    expect(teams.every((embed) => embed.title?.includes('Remis'))).toBe(true);
    expect(fieldsOf(payload)['Mapa']).toBe(`Nieznana mapa ${match.map}`);
  });

  it('reads each team result from victory: 1 win, 0 loss, -1 draw, absent unknown', () => {
    const win = groupTeams([player('a', 1, 1), player('b', 1, 1), player('c', 2, 0)]);
    expect(win.map((t) => [t.team, t.result, t.players.length])).toEqual([
      [1, 'win', 2],
      [2, 'loss', 1],
    ]);
    expect(groupTeams([player('a', 1, -1), player('b', 2, -1)]).map((t) => t.result)).toEqual([
      'draw',
      'draw',
    ]);
    expect(groupTeams([player('a', 1, 0), player('b', 2, 0)]).map((t) => t.result)).toEqual(['draw', 'draw']);
    expect(groupTeams([player('a', 1, 0)]).map((t) => t.result)).toEqual(['loss']);
    expect(groupTeams([player('a', 1, undefined), player('b', 2, 1)]).map((t) => t.result)).toEqual([
      'unknown',
      'win',
    ]);
  });

  it('keeps two teams of forty long hostile names within Discord limits, saying how many were left out', () => {
    const long = `${HOSTILE}${'Z'.repeat(300)}`;
    const participants = [
      ...Array.from({ length: 40 }, () => player(long, 1, 1, { score: 1e9, damage_done: 1e9 })),
      ...Array.from({ length: 40 }, () => player(long, 2, 0, { score: 1e9, damage_done: 1e9 })),
    ];
    const match: MatchDetails = {
      match_id: '18446744073709551615',
      date: '2026-01-01T10:00:00Z',
      map: 3,
      duration: 754,
      season: 9,
      region: 3,
      participants,
    };
    const payload = renderMatch(en, { match, mapName: `${HOSTILE}${'M'.repeat(300)}` });
    expectSafe(payload);
    expect(payload.embeds?.[0]?.title).toBe('Ranked match 18446744073709551615');
    expect(fieldsOf(payload)['Duration']).toBe('12:34');
    for (const embed of payload.embeds?.slice(1) ?? []) {
      expect(embed.description).toMatch(/\n…and \d+ more$/);
    }
  });

  it('keeps to ten embeds when the reply has more teams than that', () => {
    const participants = Array.from({ length: 12 }, (_, team) =>
      player(`p${team}`, team, team === 0 ? 1 : 0),
    );
    const payload = renderMatch(en, { match: { match_id: '1', participants }, mapName: undefined });
    expectSafe(payload);
    expect(payload.embeds).toHaveLength(10);
  });

  it('copes with missing fields and no participants', () => {
    const payload = renderMatch(en, { match: { match_id: '42' }, mapName: undefined });
    expectSafe(payload);
    expect(payload.embeds).toHaveLength(1);
    expect(payload.embeds?.[0]?.description).toBe('The game sent no participants for this match.');
    expect(Object.values(fieldsOf(payload)).filter((value) => value === '—')).toHaveLength(5);

    const bare = renderMatch(en, {
      match: { match_id: '43', participants: [{ player_name: 'Solo' }] },
      mapName: undefined,
    });
    expectSafe(bare);
    expect(bare.embeds?.[1]?.title).toBe('▫️ No team · Result unknown');
    expect(bare.embeds?.[1]?.color).toBe(Colors.neutral);
    expect(bare.embeds?.[1]?.description).toBe(
      '**Solo** · score —\nK/D/A —/—/— · — dmg · — acc. · — HS · — obj.',
    );
  });
});

describe('match id', () => {
  it('says rounds in the plural form each language needs, and an unknown count as unknown', () => {
    const match = (rounds: number | undefined): MatchDetails => ({
      match_id: '1',
      participants: [
        player('a', 1, 1, rounds === undefined ? { rounds_won: undefined } : { rounds_won: rounds }),
        player('b', 2, 0, { rounds_won: 0 }),
      ],
    });
    const scoreline = (t: typeof en, rounds: number | undefined) =>
      renderMatch(t, { match: match(rounds), mapName: undefined }).embeds?.[0]?.description ?? '';
    expect(scoreline(en, 1)).toBe('🟩 Team 1: 1 round · 🟥 Team 2: 0 rounds');
    expect(scoreline(en, 4)).toContain('Team 1: 4 rounds');
    expect(scoreline(pl, 1)).toContain('Drużyna 1: 1 runda');
    expect(scoreline(pl, 3)).toContain('Drużyna 1: 3 rundy');
    expect(scoreline(pl, 5)).toContain('Drużyna 1: 5 rund');
    expect(scoreline(translators.ru, 21)).toContain('21 раунд ·');
    expect(scoreline(en, undefined)).toContain('Team 1: rounds unknown');
  });

  it('keeps a valid id as the exact digit string', () => {
    expect(parseMatchId('9007199254740993')).toBe('9007199254740993');
    expect(parseMatchId('  18446744073709551615 ')).toBe('18446744073709551615');
    expect(parseMatchId('0')).toBe('0');
  });

  it('refuses anything but 1 to 20 digits with a clear, escaped message', () => {
    for (const input of [
      '',
      '   ',
      '12a',
      '1e5',
      '-1',
      '1.0',
      '0x10',
      '123456789012345678901',
      '١٢٣',
      HOSTILE,
      null,
    ]) {
      let error: unknown;
      try {
        parseMatchId(input);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(UserError);
      const message = en.t((error as UserError).key, (error as UserError).vars);
      expect(message).toContain('digits only');
      expect(message).not.toMatch(/@everyone|<@/);
    }
  });
});

describe('match buttons of /player matches', () => {
  it('label each match by result, map and date within 80 characters, never by its id', () => {
    const id = '9007199256255972';
    const longName = 'Parkour Paradise '.repeat(10).trim();
    const page = {
      page: 1,
      per_page: 10,
      matches: [
        { match_id: id, map: 3, victory: 1, date: '2026-11-26T18:00:00Z', kills: 16, deaths: 12 },
        { match_id: '12', map: 40, victory: 0, date: 'not a date', kills: 3, deaths: 9 },
      ],
    };
    const payload = renderMatches(en, {
      name: 'Sn1per',
      data: page,
      page: 1,
      season: undefined,
      pager: { page: (p: number) => `p:${p}`, label: 'l' },
      mapNames: new Map([[3, longName]]),
      openMatch: (matchId: string) => `match:open:${matchId}`,
    });
    expectSafe(payload);
    const rows = payload.components as unknown as Array<{ components: Array<{ label: string }> }>;
    const labels = rows[0]!.components.map((b) => b.label);
    expect(labels[0]!.length).toBeLessThanOrEqual(80);
    expect(labels[0]).toMatch(/^🟩 Win · Parkour Paradise .*… · Nov 26$/);
    expect(labels[1]).toBe('🟥 Loss · Unknown map 40 · —');
    for (const label of labels) expect(label).not.toMatch(/\d{5,}/);
    const description = payload.embeds?.[0]?.description ?? '';
    expect(description).not.toContain(id);
    expect(description.split('\n')[0]).toContain('K/D 16/12');
    expect(payload.embeds?.[0]?.footer?.text).toBe('All seasons, newest first · page 1');
    const pager = { page: (p: number) => `p:${p}`, label: 'l' };
    const season = renderMatches(pl, { name: 'x', data: page, page: 2, season: 7, pager });
    expect(season.embeds?.[0]?.footer?.text).toBe('Sezon 7, od najnowszych · strona 2');
  });

  it('say a player has played no ranked match (in the season asked), with no page buttons, on page 1', () => {
    const pager = { page: (p: number) => `p:${p}`, label: 'l' };
    const empty = { page: 1, per_page: 10, matches: [] };
    const never = renderMatches(en, { name: 'N00b', data: empty, page: 1, season: undefined, pager });
    expect(never.embeds?.[0]?.description).toBe('N00b has not played a ranked match yet.');
    expect(never.components).toEqual([]);
    const season = renderMatches(en, { name: 'N00b', data: empty, page: 1, season: 7, pager });
    expect(season.embeds?.[0]?.description).toBe('N00b played no ranked matches in season 7.');
    // Past the last page: the page is empty, and the way back stays.
    const past = renderMatches(en, {
      name: 'N00b',
      data: { ...empty, page: 3 },
      page: 3,
      season: undefined,
      pager,
    });
    expect(past.embeds?.[0]?.description).toBe('No ranked matches on this page.');
    expect(past.components).toHaveLength(1);
  });
});

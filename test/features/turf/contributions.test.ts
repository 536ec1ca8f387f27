import { describe, expect, it } from 'vitest';
import {
  TurfClanEarningsSchema,
  TurfClanPlayersSchema,
  TurfClanSchema,
} from '../../../src/api/schemas/index.ts';
import {
  CONTRIBUTORS_PER_MAP,
  renderTurfClanWithMaps,
  type MapContributions,
} from '../../../src/features/turf/contributions.ts';
import { TURF_MAP_IDS } from '../../../src/features/turf/maps.ts';
import { turfDay } from '../../../src/api/turf-days.ts';
import {
  HOSTILE,
  LONG_HOSTILE,
  embedOf,
  expectSafe,
  requireField,
  translators,
  useSandboxApi,
} from '../../support/render.ts';

/** `/turf clan`'s per-map fields: today's points, kills and deaths of each member on each turf map. */
const NOW = Date.UTC(2026, 10, 27, 15, 0, 0);
const TODAY = turfDay(NOW);
const { en } = translators;
const live = useSandboxApi({ now: () => NOW }, 'none');

const clan = TurfClanSchema.parse({
  clan_id: 7,
  clan_name: 'VOID',
  position: 3,
  points: 900,
  maps_owned: [2],
});
const earnings = TurfClanEarningsSchema.parse({ clan_id: 7, days: [{ day: TODAY - 1, kr: 100 }] });

function players(rows: ReadonlyArray<readonly [string | undefined, number, number, number]>) {
  return TurfClanPlayersSchema.parse({
    clan_id: 7,
    day: TODAY,
    players: rows.map(([name, points, kills, deaths], i) => ({
      player_id: i + 1,
      ...(name === undefined ? {} : { player_name: name }),
      points,
      kills,
      deaths,
    })),
  });
}

function render(maps: MapContributions[], t = en) {
  return renderTurfClanWithMaps(t, { clan, earnings, maps, today: TODAY, now: NOW });
}

describe('turf clan contributions per map', () => {
  it("adds a field per map with today's members, most points first", () => {
    const payload = render([
      {
        mapId: 0,
        players: players([
          ['Low', 5, 1, 9],
          ['High', 50, 7, 2],
        ]),
      },
      { mapId: 2, players: players([]) },
      { mapId: 3, players: players([[undefined, 12, 3, 4]]) },
    ]);
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(requireField(embed, 'Burg · Day 255 (Nov 27)')).toBe(
      '1. **High** · 50 pts · 7 K / 2 D\n2. **Low** · 5 pts · 1 K / 9 D',
    );
    expect(requireField(embed, 'Sandstorm · Day 255 (Nov 27)')).toBe(
      'Nobody from this clan has played this map today.',
    );
    expect(requireField(embed, 'Subzero · Day 255 (Nov 27)')).toBe('1. **#1** · 12 pts · 3 K / 4 D');
    // The clan's standing comes first, as before.
    expect(embed.fields?.[0]?.name).toBe('Position today');
  });

  it("sums each member's maps into the clan's top contributors", () => {
    const payload = render([
      {
        mapId: 0,
        players: players([
          ['Ann', 10, 1, 2],
          ['Bob', 5, 0, 0],
        ]),
      },
      { mapId: 2, players: players([['Ann', 7, 3, 1]]) },
    ]);
    expect(requireField(embedOf(payload), 'Top contributors · Day 255 (Nov 27)')).toBe(
      '1. **Ann** · 17 pts · 4 K / 3 D\n2. **Bob** · 5 pts · 0 K / 0 D',
    );
  });

  it('lists at most eight members a map and counts the rest', () => {
    const many = players(Array.from({ length: 30 }, (_, i) => [`M${i}`, 100 - i, 1, 1] as const));
    const value = requireField(embedOf(render([{ mapId: 0, players: many }])), 'Burg · Day 255 (Nov 27)');
    const lines = value.split('\n');
    expect(lines).toHaveLength(CONTRIBUTORS_PER_MAP + 1);
    expect(lines.at(-1)).toBe('…and 22 more');
  });

  it('keeps hostile names inert and the message within limits, in every locale', () => {
    const hostile = players(
      Array.from({ length: 40 }, (_, i) => [i % 2 ? HOSTILE : LONG_HOSTILE, 10, 1, 1] as const),
    );
    for (const t of Object.values(translators)) {
      expectSafe(
        render(
          TURF_MAP_IDS.map((mapId) => ({ mapId, players: hostile })),
          t,
        ),
      );
    }
  });

  it("shows a sandbox clan's members of today on each map as the API gives them", async () => {
    const api = live.client.api;
    const top = (await api.turfTopPerformingClans({ day: TODAY })).rows[0]!;
    const clanId = top.clan_id;
    const maps = await Promise.all(
      TURF_MAP_IDS.map(async (mapId) => ({ mapId, players: await api.turfClanPlayers({ clanId, mapId }) })),
    );
    const payload = renderTurfClanWithMaps(en, {
      clan: await api.turfClan({ clanId }),
      earnings: await api.turfClanEarnings({ clanId }),
      maps,
      today: TODAY,
      now: NOW,
    });
    expectSafe(payload);
    // The clan's totals are the per-map figures summed: the same as the unfiltered call's.
    const all = (await api.turfClanPlayers({ clanId })).players;
    const expected = [...all].sort((a, b) => (b.points ?? 0) - (a.points ?? 0)).slice(0, 10);
    const contributors = requireField(embedOf(payload), 'Top contributors · Day 255 (Nov 27)').split('\n');
    expect(contributors.map((line) => Number(/· ([\d,]+) pts/.exec(line)?.[1]?.replace(/,/g, '')))).toEqual(
      expected.map((p) => p.points),
    );
    for (const map of maps) {
      const best = [...map.players.players].sort((a, b) => (b.points ?? 0) - (a.points ?? 0))[0];
      const value = requireField(
        embedOf(payload),
        `${['Burg', '', 'Sandstorm', 'Subzero'][map.mapId]} · Day 255 (Nov 27)`,
      );
      if (best)
        expect(value.split('\n')[0]).toContain(
          `· ${en.n(best.points ?? 0)} pts · ${best.kills} K / ${best.deaths} D`,
        );
    }
  });
});

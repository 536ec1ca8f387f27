import { afterEach, describe, expect, it } from 'vitest';
import { MapInfoSchema, PlayerMatchesSchema, PlayerPostsSchema } from '../../src/api/schemas/index.ts';
import { generateWorld } from '../../src/dev/sandbox/world/index.ts';
import { LOCALES } from '../../src/i18n/index.ts';
import {
  FUTURE_SKEW_MS,
  pastTimes,
  pastTimestamp,
  regionLabel,
  resetFutureTimeWarning,
} from '../../src/render/common.ts';
import {
  CLAN_ROLES,
  MAP_CATEGORIES,
  className,
  clanRoleName,
  mapCategoryName,
  modeName,
  officialMapName,
  unknownName,
} from '../../src/render/names.ts';
import { capturedLog } from '../support/announcements.ts';
import { ManualClock } from '../support/clock.ts';
import { embedOf, expectSafe, translations, translators } from '../support/render.ts';
import { renderMapInfo, renderMatches, renderPosts } from '../support/with-ids.ts';

const { en, fr } = translators;
const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const all = LOCALES.map((locale) => translations.for(locale));

describe('names of ids', () => {
  it('names a profile class by the game, and an unknown class or skin naturally', () => {
    expect(className(en, '1')).toBe('Hunter');
    expect(className(en, '21')).toBe('Unknown class 21');
    expect(className(en, 'constructor')).toBe('Unknown class constructor');
    expect(unknownName(en, 'skin', 12)).toBe('Unknown skin 12');
    for (const t of all) expect(unknownName(t, 'skin', 12)).not.toContain('common:');
  });

  it('names every clan role and map category in every language, each one differently', () => {
    for (const t of all) {
      const roles = CLAN_ROLES.map((role) => clanRoleName(t, role));
      const categories = MAP_CATEGORIES.map((category) => mapCategoryName(t, category));
      for (const name of [...roles, ...categories]) {
        expect(name).not.toMatch(/\d/);
        expect(name).not.toContain('common:');
      }
      expect(new Set(roles).size).toBe(roles.length);
      expect(new Set(categories).size).toBe(categories.length);
    }
    expect(clanRoleName(en, 3)).toBe('Owner');
    expect(clanRoleName(en, 0)).toBe('Member');
    expect(clanRoleName(en, undefined)).toBe('Role unknown');
    expect(mapCategoryName(en, undefined)).toBe('—');
  });

  it('reads an unknown id naturally, in the reader’s language, never as "Role 3"', () => {
    expect(clanRoleName(en, 7)).toBe('Unknown role 7');
    expect(clanRoleName(fr, 7)).toBe('Rôle inconnu 7');
    expect(mapCategoryName(en, 42)).toBe('Unknown category 42');
    expect(modeName(en, 99)).toBe('Unknown mode 99');
    expect(regionLabel(en, 9)).toBe('Unknown region 9');
    expect(regionLabel(en, 3)).toBe('Europe');
    expect(officialMapName(en, new Map([[4, 'Kanji']]), 4)).toBe('Kanji');
    expect(officialMapName(en, new Map([[4, 'Kanji']]), 40)).toBe('Unknown map 40');
    expect(officialMapName(en, undefined, 40)).toBe('Unknown map 40');
    expect(officialMapName(en, new Map(), undefined)).toBeUndefined();
    for (const t of all) {
      for (const kind of ['role', 'category', 'mode', 'map', 'region', 'class'] as const) {
        const name = unknownName(t, kind, 7);
        expect(name).toContain('7');
        expect(name).not.toContain('names.');
        expect(name.length).toBeGreaterThan(3);
      }
    }
  });

  it('escapes an official map name from the API and does not let an id string carry markup', () => {
    expect(officialMapName(en, new Map([[1, '**@everyone**']]), 1)).toBe('\\*\\*@\u200Beveryone\\*\\*');
    expect(unknownName(en, 'map', '[x](http://e.vil)')).toBe('Unknown map xhttpe.vil');
  });

  it('shows a map’s category by name', () => {
    const map = MapInfoSchema.parse({ map_id: 9, name: 'Golf', category: 2 });
    const fields = embedOf(renderMapInfo(en, map, NOW)).fields ?? [];
    expect(fields.find((f) => f.name === 'Category')?.value).toBe('Parkour');
    const odd = MapInfoSchema.parse({ map_id: 9, name: 'Golf', category: 31 });
    const oddFields = embedOf(renderMapInfo(fr, odd, NOW)).fields ?? [];
    expect(oddFields.map((f) => f.value)).toContain('Catégorie inconnue 31');
  });
});

describe('times in the future', () => {
  afterEach(() => resetFutureTimeWarning());

  it('shows a past event dated after now as now, and logs it once per process', async () => {
    resetFutureTimeWarning();
    const clock = new ManualClock(NOW);
    const { log, lines } = capturedLog();
    const tenHours = new Date(clock.now() + 10 * 3_600_000).toISOString();
    const data = PlayerMatchesSchema.parse({
      page: 1,
      per_page: 10,
      matches: [
        { match_id: 1, date: tenHours, map: 0 },
        { match_id: 2, date: new Date(clock.now() - 60_000).toISOString(), map: 0 },
      ],
    });
    const first = renderMatches(en, {
      name: 'P',
      data,
      page: 1,
      season: undefined,
      now: clock.now(),
      past: pastTimes(clock.now(), log),
    });
    expectSafe(first);
    const description = embedOf(first).description ?? '';
    expect(description.split('\n')[0]).toContain(`<t:${NOW / 1000}:R>`);
    expect(description).not.toContain(`<t:${Date.parse(tenHours) / 1000}:R>`);
    expect(description.split('\n')[1]).toContain(`<t:${NOW / 1000 - 60}:R>`);

    // Another reply, later, with another future time: clamped again, not logged again.
    await clock.advance(60_000);
    const posts = PlayerPostsSchema.parse({
      posts: [{ text: 'hi', date: new Date(clock.now() + 3_600_000).toISOString() }],
    });
    const second = renderPosts(en, {
      name: 'P',
      data: posts,
      page: 1,
      now: clock.now(),
      past: pastTimes(clock.now(), log),
    });
    expect(embedOf(second).fields?.[0]?.value).toContain(`<t:${clock.now() / 1000}:R>`);

    const warnings = lines.filter((line) => line['level'] === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ at: tenHours, now: new Date(NOW).toISOString() });
    expect(String(warnings[0]?.['msg'])).toContain('future');
  });

  it('clamps a few seconds of clock skew without a warning, and leaves past times alone', () => {
    resetFutureTimeWarning();
    const { log, lines } = capturedLog();
    const past = pastTimes(NOW, log);
    expect(pastTimestamp(NOW + FUTURE_SKEW_MS, 'R', past)).toBe(`<t:${NOW / 1000}:R>`);
    expect(pastTimestamp(NOW - 5_000, 'R', past)).toBe(`<t:${NOW / 1000 - 5}:R>`);
    expect(pastTimestamp(undefined, 'R', past)).toBe('—');
    expect(pastTimestamp('not a date', 'R', past)).toBe('—');
    // Without `past` (a renderer not given now) nothing is clamped.
    expect(pastTimestamp(NOW + 3_600_000, 'R', undefined)).toBe(`<t:${NOW / 1000 + 3600}:R>`);
    expect(lines).toHaveLength(0);
    expect(pastTimestamp(NOW + FUTURE_SKEW_MS + 1, 'f', past)).toBe(`<t:${NOW / 1000}:f>`);
    expect(lines).toHaveLength(1);
  });

  it('the sandbox seeds nothing after its now, whatever the hour', () => {
    for (const hour of [0, 1, 9, 13, 23]) {
      const now = Date.UTC(2026, 4, 20, hour, 17, 0);
      const world = generateWorld(7, now, 80);
      const times: number[] = [
        ...world.market.flatMap((skin) => skin.listings.map((listing) => listing.listedAtMs)),
        ...world.posts.map((post) => post.dateMs),
        ...world.matches.map((match) => match.dateMs),
        ...world.kpdCalls.flatMap((call) => [Date.parse(call.date), Date.parse(call.status_date)]),
        ...world.players.map((player) => player.createdAtMs),
        ...world.maps.flatMap((map) => [map.createdAtMs, map.updatedAtMs]),
      ];
      expect(times.length).toBeGreaterThan(100);
      expect(times.filter((time) => !(time <= now))).toEqual([]);
    }
  });
});

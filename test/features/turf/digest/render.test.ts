import { describe, expect, it } from 'vitest';
import { digestOf } from '../../../../src/features/turf/digest/collect.ts';
import { DIGEST_IDLE_NAMES, DIGEST_TOP, type Digest } from '../../../../src/features/turf/digest/model.ts';
import { renderTurfDigest, within } from '../../../../src/features/turf/digest/render.ts';
import { escapeMarkdown } from '../../../../src/render/text.ts';
import { HOSTILE, NASTY, embedOf, expectSafe, translators } from '../../../support/render.ts';

/** The digest's post: bounded lists, hostile names as data, the idle list only where it is asked for. */
const base: Digest = {
  clanId: 7,
  clanName: 'Vortex',
  day: 249,
  position: 3,
  points: 12_345,
  kr: 4_500,
  contributors: [{ name: 'Ace', points: 900, kills: 40, deaths: 12 }],
  played: 1,
  payouts: [{ name: 'Ace', kr: 4_500 }],
  paid: 1,
  paidKr: 4_500,
  idle: { names: ['Lazy'], count: 1, roster: 2 },
};

describe('renderTurfDigest', () => {
  it('shows the place, points, KR, contributors and payouts in the reader’s language', () => {
    const en = embedOf(renderTurfDigest(translators.en, { digest: base, idle: false }));
    expect(en.title).toBe('Vortex: turf day 249 (Nov 21)');
    expect(en.description).toBe('Place **3** of the day with **12,345** points.\nEarned **4,500 KR**.');
    expect(en.fields?.map((f) => f.value)).toEqual([
      '1. **Ace**: 900 points · 40 K / 12 D',
      '**Ace**: 4,500 KR\nPlayers paid: 1 · 4,500 KR in all',
    ]);
    const de = embedOf(renderTurfDigest(translators.de, { digest: base, idle: false }));
    expect(de.title).toBe('Vortex: Reviertag 249 (21. Nov.)');
    expect(de.description).toBe('Platz **3** des Tages mit **12.345** Punkten.\n**4.500 KR** verdient.');
  });

  it('lists the members who scored nothing only where the subscription turned it on', () => {
    const without = embedOf(renderTurfDigest(translators.en, { digest: base, idle: false }));
    expect(without.fields?.map((f) => f.name)).toEqual(['Top contributors', 'Payouts']);
    const withIdle = embedOf(renderTurfDigest(translators.en, { digest: base, idle: true }));
    expect(withIdle.fields?.[2]).toEqual({
      name: 'Scored nothing',
      value: '1 of 2 roster members scored no points:\nLazy',
      inline: false,
    });
    const { idle: _idle, ...noRoster } = base;
    expect(
      embedOf(renderTurfDigest(translators.en, { digest: noRoster, idle: true })).fields?.[2]?.value,
    ).toBe('The roster could not be read this time.');
  });

  it('says when the clan is outside the day’s board, scored nothing or earned nothing', () => {
    const outside = embedOf(
      renderTurfDigest(translators.en, { digest: { ...base, position: null, kr: 0 }, idle: false }),
    );
    expect(outside.description).toBe("Outside the day's top 100, with **12,345** points.\nNo KR earned.");
    const nothing = embedOf(
      renderTurfDigest(translators.en, {
        digest: { ...base, points: 0, contributors: [], played: 0, payouts: [], paid: 0, paidKr: 0 },
        idle: false,
      }),
    );
    expect(nothing.description).toContain('No turf points this day.');
    expect(nothing.fields?.map((f) => f.value)).toEqual([
      'Nobody scored for the clan this day.',
      'No payouts this day.',
    ]);
  });

  it('keeps hostile names inert and every list within its field, whatever the roster holds', () => {
    const hostile = `${NASTY} ${'x'.repeat(40)}`;
    const digest = digestOf({
      clanId: 7,
      clanName: HOSTILE,
      day: 249,
      board: { rows: [{ clan_id: 7, clan_name: HOSTILE, position: 2, points: 50 }] },
      earnings: { clan_id: 7, days: [{ day: 249, kr: 10 }] },
      players: {
        clan_id: 7,
        players: Array.from({ length: 2_000 }, (_, i) => ({
          player_id: i,
          player_name: `${hostile}${i}`,
          points: i + 1,
          kills: 1,
          deaths: 1,
        })),
      },
      payouts: {
        clan_id: 7,
        payouts: Array.from({ length: 2_000 }, (_, i) => ({
          player_id: i,
          player_name: `${hostile}${i}`,
          kr: 5,
        })),
      },
      roster: {
        clan_id: 7,
        name: HOSTILE,
        members: Array.from({ length: 2_000 }, (_, i) => ({ n: `${hostile}idle${i}` })),
      },
    });
    expect(digest.contributors).toHaveLength(DIGEST_TOP);
    expect(digest.idle?.names).toHaveLength(DIGEST_IDLE_NAMES);
    expect(digest.idle?.count).toBe(2_000);
    for (const t of [translators.en, translators.ru, translators.tr]) {
      const payload = renderTurfDigest(t, { digest, idle: true });
      expectSafe(payload);
      const fields = embedOf(payload).fields ?? [];
      expect(fields).toHaveLength(3);
      for (const field of fields) expect(field.value.length).toBeLessThanOrEqual(1024);
    }
    const en = embedOf(renderTurfDigest(translators.en, { digest, idle: true }));
    expect(en.fields?.[0]?.value).toMatch(/…and [\d,]+ more$/);
    expect(en.fields?.[2]?.value).toMatch(/…and [\d,]+ more$/);
    expect(en.title).toContain(escapeMarkdown(HOSTILE).slice(0, 20));
  });
});

describe('within', () => {
  it('fits as many parts as the room holds, with the count of the rest', () => {
    const more = (n: number) => `+${n}`;
    expect(within(['a', 'b', 'c'], 100, ', ', more)).toBe('a, b, c');
    expect(within(['aaaa', 'bbbb', 'cccc'], 10, ', ', more)).toBe('aaaa, +2');
    expect(within(['a'], 100, ', ', more, 5)).toBe('a, +5');
    expect(within([], 100, ', ', more, 3)).toBe('+3');
    for (let max = 0; max < 30; max += 1) {
      const shown = within(['aaaa', 'bbbb', 'cccc', 'dddd'], max, ', ', more);
      if (shown !== '+4') expect(shown.length).toBeLessThanOrEqual(max);
    }
  });
});

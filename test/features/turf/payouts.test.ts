import { describe, expect, it } from 'vitest';
import { TurfClanPayoutsSchema } from '../../../src/api/schemas/index.ts';
import { paidMembers, renderTurfPayouts, type TurfPayoutsView } from '../../../src/features/turf/payouts.ts';
import { turfIds, turfPagers } from '../../../src/features/turf/ids.ts';
import { turfDay, turfDayDate } from '../../../src/api/turf-days.ts';
import {
  HOSTILE,
  buttons,
  descriptionLines,
  embedOf,
  expectSafe,
  translators,
  useSandboxApi,
} from '../../support/render.ts';

/** `/turf payouts`: a day's or the season's payouts of a clan, most paid first, paged. */
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const TODAY = turfDay(NOW);
const { en, ru } = translators;
const live = useSandboxApi({ now: () => NOW }, 'none');

function payouts(count: number, day: number | null) {
  return TurfClanPayoutsSchema.parse({
    clan_id: 7,
    day,
    payouts: Array.from({ length: count }, (_, i) => ({
      player_id: i + 1,
      player_name: `P${String(i + 1).padStart(2, '0')}`,
      kr: (i % 5) * 100,
    })),
  });
}

function view(data: ReturnType<typeof payouts>, overrides: Partial<TurfPayoutsView> = {}): TurfPayoutsView {
  return {
    clanName: 'VOID',
    payouts: data,
    day: data.day ?? undefined,
    today: TODAY,
    page: 1,
    pager: turfPagers.payouts(data.clan_id, data.day ?? undefined, NOW),
    ...overrides,
  };
}

describe('turf payouts', () => {
  it('lists the season totals most paid first, with the total and the number paid', () => {
    const payload = renderTurfPayouts(en, view(payouts(5, null)));
    expectSafe(payload);
    expect(embedOf(payload).title).toBe('Turf payouts · VOID');
    expect(descriptionLines(payload)).toEqual([
      "This season's totals (every finished day)",
      '',
      '🥇 **P05** · 400 KR',
      '🥈 **P04** · 300 KR',
      '🥉 **P03** · 200 KR',
      '**#4** **P02** · 100 KR',
      '**#5** **P01** · 0 KR',
    ]);
    expect(embedOf(payload).footer?.text).toBe('1,000 KR paid to 5 players');
    expect(payload.components).toEqual([]);
  });

  it("names the day, says today's payouts are still to come, and says when nobody was paid", () => {
    const day = renderTurfPayouts(en, view(payouts(2, TODAY - 1)));
    expect(descriptionLines(day)[0]).toBe('Paid for Day 254 (Nov 26)');
    const today = renderTurfPayouts(en, view(payouts(0, TODAY)));
    expect(descriptionLines(today)).toEqual([
      'Paid for Day 255 (Nov 27)',
      `This day is still being played: its payouts come after it ends, <t:${turfDayDate(TODAY + 1) / 1000}:R>.`,
      '',
      'Nobody in this clan was paid for this day.',
    ]);
    expect(descriptionLines(renderTurfPayouts(en, view(payouts(0, null)))).at(-1)).toBe(
      'Nobody in this clan has been paid this season.',
    );
  });

  it('pages a large clan 25 at a time; the pager carries the clan id and the day', () => {
    const data = payouts(60, TODAY - 2);
    const second = renderTurfPayouts(en, view(data, { page: 2 }));
    expect(descriptionLines(second).slice(2)).toHaveLength(25);
    expect(descriptionLines(second)[2]).toMatch(/^\*\*#26\*\* /);
    const next = buttons(second)[2]?.id;
    expect(next && turfIds.decode(next)?.args).toEqual({ clan: '7', day: String(TODAY - 2), page: '3' });
    expect(paidMembers(data.payouts).map((p) => p.kr)).toEqual(
      [...data.payouts.map((p) => p.kr ?? 0)].sort((a, b) => b - a),
    );
  });

  it('keeps hostile names inert and shows a payee without a name by id', () => {
    const data = TurfClanPayoutsSchema.parse({
      clan_id: 1,
      day: null,
      payouts: [
        { player_id: 1, player_name: HOSTILE, kr: 5 },
        { player_id: 42, kr: 1 },
        { player_id: 3, player_name: 'bad', kr: -5 },
      ],
    });
    for (const t of Object.values(translators))
      expectSafe(renderTurfPayouts(t, view(data, { clanName: HOSTILE })));
    const lines = descriptionLines(renderTurfPayouts(ru, view(data)));
    expect(lines).toContain('🥈 **#42** · 1 KR');
    // A negative amount is no amount: the row stays, its KR unknown and counted as 0.
    expect(lines.at(-1)).toBe('🥉 **bad** · 0 KR');
  });

  it("renders a sandbox clan's season and one paid day", async () => {
    const api = live.client.api;
    const top = (await api.turfTopGrossingClans({})).rows[0]!;
    const season = await api.turfClanPayouts({ clanId: top.clan_id });
    const payload = renderTurfPayouts(en, view(season, { clanName: top.clan_name, day: undefined }));
    expectSafe(payload);
    const paid = season.payouts.reduce((sum, p) => sum + (p.kr ?? 0), 0);
    expect(embedOf(payload).footer?.text).toBe(`${en.n(paid)} KR paid to ${season.payouts.length} players`);
    const earnings = await api.turfClanEarnings({ clanId: top.clan_id });
    const paidDay = earnings.days.find((d) => (d.kr ?? 0) > 0)!.day;
    const day = await api.turfClanPayouts({ clanId: top.clan_id, day: paidDay });
    expect(day.payouts.length).toBeGreaterThan(0);
    expectSafe(renderTurfPayouts(en, view(day, { clanName: top.clan_name })));
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { command as marketCommand } from '../../commands/market.ts';
import {
  ClanProfileSchema,
  KpdCallSchema,
  MapInfoSchema,
  MapLeaderboardPlayerSchema,
  MapLeaderboardSchema,
  MarketHistorySchema,
  MarketSkinSchema,
  MatchHistorySchema,
  ModSchema,
  OwnListingsSchema,
  PlayerProfileSchema,
  TradesHistorySchema,
} from '../../src/api/schemas/index.ts';
import { pastTimes, resetFutureTimeWarning, type PastTimes } from '../../src/render/common.ts';
import { renderClanProfile } from '../../src/features/clans/render.ts';
import { renderKpdCallChanged, renderKpdNewCall } from '../../src/features/kpd/render.ts';
import { kpdKind } from '../../src/features/kpd/kind.ts';
import { announcedCall, KPD_NEW_CALL } from '../../src/features/kpd/events.ts';
import { renderMapInfo, renderMapRank } from '../../src/features/maps/render.ts';
import {
  renderMarketHistory,
  renderMatchHistory,
  renderOwnListings,
  renderTrades,
} from '../../src/features/tokens/render.ts';
import { renderModInfo } from '../../src/features/mods/render.ts';
import type { ReplyPayload } from '../../src/render/payload.ts';
import { capturedLog, commandOptions, routeCommands, useWorldPerTest } from '../support/announcements.ts';
import { ManualClock } from '../support/clock.ts';
import { embedText, expectSafe, translators, visibleText } from '../support/render.ts';
import {
  renderKpdCalls,
  renderMapLeaderboard,
  renderMarketSkin,
  renderProfile,
} from '../support/with-ids.ts';

/**
 * Issue 13: every reply that shows when a past event of the game happened (a listing, a trade, a map's
 * creation, a KPD call) shows a time after now as now, never as "in 10 hours"; past times stay as sent.
 */
const { en } = translators;
const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const HOUR = 3_600_000;
const FUTURE = new Date(NOW + 10 * HOUR).toISOString();
const PAST = new Date(NOW - 5 * HOUR).toISOString();
const tag = (ms: number, style: string) => `<t:${Math.floor(ms / 1000)}:${style}>`;
const noName = () => undefined;

type Style = 'R' | 'f' | 'D';
interface Case {
  readonly name: string;
  /** The styles the date shows in (each must be clamped). */
  readonly styles: readonly Style[];
  readonly render: (date: string, past: PastTimes | undefined) => ReplyPayload | Promise<ReplyPayload>;
}

const kpdCall = (date: string) =>
  KpdCallSchema.parse({ id: 7, date, status: 2, status_date: date, caller_name: 'C', called_name: 'D' });

const CASES: readonly Case[] = [
  {
    name: '/market skin listings',
    styles: ['R'],
    render: (date, past) =>
      renderMarketSkin(en, {
        data: MarketSkinSchema.parse({
          skin_index: 3,
          total_listings: 1,
          listings: [{ price: 10, seller_name: 'Seller', listed_at: date }],
        }),
        skinName: 'Skin',
        days: 30,
        page: 1,
        now: NOW,
        past,
      }),
  },
  {
    name: '/me market history',
    styles: ['R'],
    render: (date, past) =>
      renderMarketHistory(
        en,
        MarketHistorySchema.parse({
          entries: [{ market_id: '1', skin_index: 3, price: 10, side: 'sell', date }],
        }),
        noName,
        past,
      ),
  },
  {
    name: '/me listings',
    styles: ['R'],
    render: (date, past) =>
      renderOwnListings(
        en,
        OwnListingsSchema.parse({
          listings: [{ market_id: '1', skin_index: 3, price: 10, listed_at: date }],
        }),
        noName,
        past,
      ),
  },
  {
    name: '/me trades',
    styles: ['f'],
    render: (date, past) =>
      renderTrades(
        en,
        TradesHistorySchema.parse({ trades: [{ id: '5', st: 1, pn: 'P', kr: 3, ts: date }] }),
        1,
        noName,
        past,
      ),
  },
  {
    name: '/me matches',
    styles: ['R'],
    render: (date, past) =>
      renderMatchHistory(
        en,
        MatchHistorySchema.parse({ matches: [{ match_id: '9', date, map: 0, result: 1 }], total: 1 }),
        1,
        noName,
        past,
      ),
  },
  {
    name: '/map info (created and updated)',
    styles: ['D'],
    render: (date, past) =>
      renderMapInfo(
        en,
        MapInfoSchema.parse({ map_id: 1, name: 'Map', created_at: date, updated_at: date }),
        undefined,
        past,
      ),
  },
  {
    name: '/map leaderboard',
    styles: ['R'],
    render: (date, past) =>
      renderMapLeaderboard(en, {
        name: 'Map',
        data: MapLeaderboardSchema.parse({
          entries: [{ player_name: 'P', position: 1, value: 5, date }],
          leaderboard_type: 'score',
          leaderboard_order: 1,
        }),
        page: 1,
        now: NOW,
        past,
      }),
  },
  {
    name: '/map rank',
    styles: ['f'],
    render: (date, past) =>
      renderMapRank(
        en,
        MapLeaderboardPlayerSchema.parse({ player_name: 'P', position: 4, value: 5, date }),
        'Map',
        past,
      ),
  },
  {
    name: '/mods info (created and updated)',
    styles: ['D', 'R'],
    render: (date, past) =>
      renderModInfo(
        en,
        ModSchema.parse({ mod_id: 1, name: 'Mod', created_at: date, updated_at: date }),
        past,
      ),
  },
  {
    name: '/clan profile',
    styles: ['D'],
    render: (date, past) =>
      renderClanProfile(en, ClanProfileSchema.parse({ name: 'Clan', created_at: date }), undefined, past),
  },
  {
    name: '/player profile',
    styles: ['D'],
    render: (date, past) =>
      renderProfile(en, {
        profile: PlayerProfileSchema.parse({ player_id: 1, player_name: 'P', created_at: date }),
        section: 'overview',
        now: NOW,
        past,
      }),
  },
  {
    name: '/kpd calls (date and status date)',
    styles: ['f', 'R'],
    render: (date, past) => renderKpdCalls(en, { calls: [kpdCall(date)], page: 1, now: NOW, past }),
  },
  {
    name: 'KPD new call post',
    styles: ['f', 'R'],
    render: (date, past) => renderKpdNewCall(en, kpdCall(date), past),
  },
  {
    name: 'KPD changed call post',
    styles: ['f', 'R'],
    render: (date, past) => renderKpdCallChanged(en, kpdCall(date), { status: 1 }, past),
  },
];

describe('past events dated in the future, in every reply', () => {
  beforeEach(() => resetFutureTimeWarning());

  it.each(CASES)('$name: a time 10 h ahead shows as now, a past one as sent', async ({ styles, render }) => {
    const { log, lines } = capturedLog();
    const clamped = await render(FUTURE, pastTimes(NOW, log));
    expectSafe(clamped);
    const text = visibleText(clamped);
    expect(text).not.toContain(`<t:${Math.floor(Date.parse(FUTURE) / 1000)}:`);
    for (const style of styles) expect(text).toContain(tag(NOW, style));
    expect(lines.filter((line) => line['level'] === 40)).toHaveLength(1);

    const past = visibleText(await render(PAST, pastTimes(NOW, log)));
    for (const style of styles) expect(past).toContain(tag(Date.parse(PAST), style));
    expect(past).not.toContain(`<t:${NOW / 1000}:`);

    // A caller that gives no `past` is unchanged (and the payload does carry the date).
    expect(visibleText(await render(FUTURE, undefined))).toContain(tag(Date.parse(FUTURE), styles[0]!));
  });

  it('one warning for a whole reply of future times, none for the next reply', async () => {
    const { log, lines } = capturedLog();
    const first = await render(CASES, 'KPD new call post', pastTimes(NOW, log));
    const second = await render(CASES, '/mods info (created and updated)', pastTimes(NOW + HOUR, log));
    expect(embedText(first)).toContain(tag(NOW, 'f'));
    expect(embedText(second)).toContain(tag(NOW + HOUR, 'D'));
    const warnings = lines.filter((line) => line['level'] === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ at: FUTURE, now: new Date(NOW).toISOString() });
  });
});

describe('KPD posts through their announcement kind', () => {
  beforeEach(() => resetFutureTimeWarning());

  it('clamps a call dated in the future with the delivery’s past times', async () => {
    const { log } = capturedLog();
    const event = {
      key: 'kpd:7',
      source: 'kpd',
      type: KPD_NEW_CALL,
      at: NOW,
      data: { guildId: '1', call: announcedCall(kpdCall(FUTURE)) },
    };
    const subscription = { id: 's', guildId: '1', channelId: '2', kind: 'kpd' } as never;
    const plan = kpdKind.plan(event, subscription, en, pastTimes(NOW, log));
    if (plan?.action !== 'post') throw new Error('no post planned');
    const text = visibleText(plan.payload);
    expect(text).toContain(tag(NOW, 'f'));
    expect(text).not.toContain(`<t:${Math.floor(Date.parse(FUTURE) / 1000)}:`);
  });
});

function render(cases: readonly Case[], name: string, past: PastTimes): Promise<ReplyPayload> {
  const found = cases.find((c) => c.name === name);
  if (!found) throw new Error(`no case ${name}`);
  return Promise.resolve(found.render(FUTURE, past));
}

routeCommands(marketCommand);
const fixture = useWorldPerTest({ clock: new ManualClock(NOW) });

describe('/market skin through the stand-in', () => {
  beforeEach(() => resetFutureTimeWarning());

  it('shows a listing the sandbox dates 10 h ahead as now, and logs it once across replies', async () => {
    const { world } = fixture;
    const { log, lines } = capturedLog();
    await fixture.start({ commands: true, log });
    const skin = world.sandbox.world.market.find((m) => m.listings.length > 1);
    if (!skin) throw new Error('the sandbox has no skin with listings');
    const ahead = world.clock.now() + 10 * HOUR;
    (skin.listings[0] as { listedAtMs: number }).listedAtMs = ahead;
    const ask = () =>
      world.discord
        .invokeCommand({
          name: 'market',
          guildId: world.guildId,
          options: commandOptions('market', 'skin', { skin: skin.skinIndex }),
        })
        .final();

    const first = await ask();
    const text = first.embeds.map((e) => JSON.stringify(e)).join('\n');
    expect(text).toContain(tag(world.clock.now(), 'R'));
    expect(text).not.toContain(`<t:${Math.floor(ahead / 1000)}:`);
    // The other listings keep their own (past) times.
    expect(text).toContain(tag(skin.listings[1]!.listedAtMs, 'R'));

    await world.clock.advance(60_000);
    const second = await ask();
    expect(second.embeds.map((e) => JSON.stringify(e)).join('\n')).toContain(tag(world.clock.now(), 'R'));
    const warnings = lines.filter((line) => line['level'] === 40 && String(line['msg']).includes('future'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ at: new Date(ahead).toISOString() });
  });
});

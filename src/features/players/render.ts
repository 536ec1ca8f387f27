import type { APIEmbedField } from 'discord.js';
import type { PlayerInventory, PlayerListings, PlayerPosts, PlayerProfile } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { renderProfileCard, type CardBadge } from './card.ts';
import { renderRankedStandingChart } from './ranked-chart.ts';
import {
  duration,
  field,
  fit,
  kr,
  MAX_PAGE_ROWS,
  num,
  pageRow,
  pastTimestamp,
  type PastTimes,
  pageRows,
  percent,
  ratio,
  regionLabel,
  selectRow,
  text,
  type PageView,
  type Row,
} from '../../render/common.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { className, unknownName } from '../../render/names.ts';
import { renderInventoryPage, type InventoryView } from './inventory.ts';

export const PROFILE_SECTIONS = ['overview', 'ranked', 'combat', 'killstreaks', 'classes'] as const;
export type ProfileSection = (typeof PROFILE_SECTIONS)[number];

export function isProfileSection(value: string | undefined): value is ProfileSection {
  return (PROFILE_SECTIONS as readonly string[]).includes(value ?? '');
}

function profileColor(profile: PlayerProfile): number {
  if (profile.hacker_tagged) return Colors.danger;
  if (profile.premium) return Colors.gold;
  if (profile.verified) return Colors.info;
  return Colors.brand;
}

function badges(t: Translator, profile: PlayerProfile): string {
  const marks: string[] = [];
  if (profile.verified) marks.push(`✅ ${t.t('player:profile.verified')}`);
  if (profile.premium) marks.push(`⭐ ${t.t('player:profile.premium')}`);
  if (profile.kpd) marks.push(`🛡️ ${t.t('player:profile.kpd')}`);
  if (profile.hacker_tagged) marks.push(`⚠️ ${t.t('player:profile.hacker')}`);
  return marks.join(' · ');
}

function sectionFields(
  t: Translator,
  profile: PlayerProfile,
  section: ProfileSection,
  past: PastTimes | undefined,
  inventory: InventoryValue | undefined,
) {
  const p = profile;
  switch (section) {
    case 'overview':
      return [
        field(t.t('player:profile.level'), num(t, p.level)),
        field(t.t('player:profile.score'), num(t, p.score)),
        field(t.t('player:profile.kr'), num(t, p.kr)),
        field(t.t('player:profile.clan'), p.clan ? text(p.clan, 100) : t.t('common:none')),
        field(t.t('player:profile.games'), num(t, p.games)),
        field(t.t('player:profile.winRate'), percent(t, p.wins, p.games)),
        // The numbers a shooter's players look for first, side by side.
        field(t.t('player:profile.kills'), num(t, p.kills)),
        field(t.t('player:profile.deaths'), num(t, p.deaths)),
        field(t.t('player:profile.kdr'), ratio(t, p.kdr)),
        field(t.t('player:profile.timePlayed'), duration(t, p.time_played)),
        field(t.t('player:profile.followers'), `${num(t, p.followers)} / ${num(t, p.following)}`),
        field(t.t('player:profile.junk'), ratio(t, p.junk)),
        // The inventory value `/player inventory` totals, in KR (`inventoryValue`), never the profile's
        // unitless `inventory` field: one number under one name everywhere.
        field(t.t('player:profile.inventory'), kr(t, inventory?.total)),
        field(t.t('player:profile.created'), pastTimestamp(p.created_at, 'D', past)),
      ];
    case 'ranked':
      return (p.ranked ?? []).slice(0, MAX_PAGE_ROWS).map((r) =>
        field(
          regionLabel(t, r.region),
          t.t('player:profile.rankedLine', {
            mmr: num(t, r.mmr),
            wins: num(t, r.wins),
            losses: num(t, r.losses),
            kd: ratio(t, r.kills !== undefined && r.deaths ? r.kills / r.deaths : undefined),
            time: duration(t, r.time_played),
          }),
          false,
        ),
      );
    case 'combat':
      return [
        field(t.t('player:profile.kills'), num(t, p.kills)),
        field(t.t('player:profile.deaths'), num(t, p.deaths)),
        field(t.t('player:profile.kdr'), ratio(t, p.kdr)),
        field(t.t('player:profile.kpg'), ratio(t, p.kpg)),
        field(t.t('player:profile.spk'), ratio(t, p.spk)),
        field(t.t('player:profile.assists'), num(t, p.assists)),
        field(t.t('player:profile.accuracy'), percent(t, p.hits, p.shots)),
        field(t.t('player:profile.headshots'), num(t, p.headshots)),
        field(t.t('player:profile.legshots'), num(t, p.legshots)),
        field(t.t('player:profile.wallbangs'), num(t, p.wallbangs)),
        field(t.t('player:profile.melees'), num(t, p.melees)),
        field(t.t('player:profile.beatdowns'), num(t, p.beatdowns)),
        field(t.t('player:profile.bullseyes'), num(t, p.bullseyes)),
      ];
    case 'killstreaks':
      return [
        field(t.t('player:profile.nukes'), num(t, p.nukes)),
        field(t.t('player:profile.airdrops'), num(t, p.airdrops)),
        field(t.t('player:profile.airdropsStolen'), num(t, p.airdrops_stolen)),
        field(t.t('player:profile.slimes'), num(t, p.slimes)),
        field(t.t('player:profile.juggernauts'), num(t, p.juggernauts)),
        field(t.t('player:profile.juggernautsKilled'), num(t, p.juggernauts_killed)),
        field(t.t('player:profile.warmachines'), num(t, p.warmachines)),
      ];
    case 'classes':
      return Object.entries(p.class_stats ?? {})
        .sort(([, a], [, b]) => b - a)
        .slice(0, MAX_PAGE_ROWS)
        .map(([id, score]) => field(className(t, id), num(t, score)));
  }
}

export interface ProfileView {
  readonly profile: PlayerProfile;
  readonly section: ProfileSection;
  /** The custom id of the section menu (no menu when undefined). */
  readonly menuId: string | undefined;
  /**
   * Fields of change since earlier snapshots (`changeFields`), shown after the section's own. They may
   * still be on their way (a read of the store): the rest of the reply is made meanwhile.
   */
  readonly changes?: readonly APIEmbedField[] | PromiseLike<readonly APIEmbedField[]> | undefined;
  /** Earlier ranked standings (from the snapshots) for the ranked chart's line over time. */
  readonly rankedHistory?:
    readonly { readonly at: number; readonly ranked: readonly RankedPoint[] }[] | undefined;
  /** When the profile was read: the end of the ranked chart's line over time. */
  readonly now?: number | undefined;
  /** Now, for the times of past events (one after it is shown as now and reported). */
  readonly past?: PastTimes | undefined;
  /** The inventory value (`readInventoryValue`) for the overview; undefined: not read, shown as "—". */
  readonly inventory?: InventoryValue | undefined;
}

export interface InventoryValue {
  readonly total: number;
  readonly unpriced: number;
}

interface RankedPoint {
  readonly region: number;
  readonly mmr: number;
}

/** What the profile card shows, formatted in the reader's language. */
function profileCardInput(t: Translator, profile: PlayerProfile) {
  const badges: CardBadge[] = [];
  if (profile.verified) badges.push({ kind: 'verified', label: t.t('player:profile.verified') });
  if (profile.premium) badges.push({ kind: 'premium', label: t.t('player:profile.premium') });
  if (profile.kpd) badges.push({ kind: 'kpd', label: t.t('player:profile.kpd') });
  if (profile.hacker_tagged) badges.push({ kind: 'hacker', label: t.t('player:profile.hacker') });
  const ranked = [...(profile.ranked ?? [])].slice(0, 16).sort((a, b) => (b.mmr ?? 0) - (a.mmr ?? 0));
  return {
    name: profile.player_name,
    clan: profile.clan,
    level: t.t('player:card.level', { level: num(t, profile.level) }),
    badges,
    stats: [
      { label: t.t('player:profile.kdr'), value: ratio(t, profile.kdr) },
      { label: t.t('player:profile.kills'), value: num(t, profile.kills) },
      { label: t.t('player:profile.score'), value: num(t, profile.score) },
      { label: t.t('player:profile.winRate'), value: percent(t, profile.wins, profile.games) },
      { label: t.t('player:profile.timePlayed'), value: duration(t, profile.time_played) },
    ],
    ranked: {
      title: t.t('player:card.ranked'),
      regions: ranked.map((r) => ({
        label: regionLabel(t, r.region),
        value: t.t('player:card.mmr', { mmr: num(t, r.mmr) }),
      })),
      none: t.t('player:card.noRanked'),
    },
  };
}

/**
 * The section's own fields, and on the overview the card: it sums up the player on the first page, the
 * one a user shares; the other sections are the details (the ranked one has its own chart).
 */
async function sectionAndCard(
  t: Translator,
  profile: PlayerProfile,
  section: ProfileSection,
  past: PastTimes | undefined,
  inventory: InventoryValue | undefined,
) {
  const own = sectionFields(t, profile, section, past, inventory);
  const card = section === 'overview' ? await renderProfileCard(profileCardInput(t, profile)) : undefined;
  return { own, card };
}

/** The profile, one section at a time, with a menu to switch sections (the card, the ranked chart). */
export async function renderProfile(
  t: Translator,
  { profile, section, menuId, changes, rankedHistory, now, past, inventory }: ProfileView,
): Promise<ReplyPayload> {
  // The section and its card are made while the changes may still be on their way; they come last.
  const [changed, { own, card }] = await Promise.all([
    changes ?? [],
    sectionAndCard(t, profile, section, past, inventory),
  ]);
  const fields = [...own, ...changed];
  const description = [badges(t, profile), fields.length === 0 ? t.t(`player:profile.empty.${section}`) : '']
    .filter(Boolean)
    .join('\n');
  const embed = fit({
    color: profileColor(profile),
    title: text(profile.player_name, 200),
    ...(description ? { description } : {}),
    fields,
    footer: {
      text: `${t.t(`player:sections.${section}`)} · ${t.t('player:profile.id', { id: profile.player_id })}`,
    },
  });

  const files: Array<{ name: string; data: Buffer; description: string }> = [];
  // Not drawn (a failed or stuck render): the profile as text alone.
  if (card !== undefined) {
    files.push({ name: 'card.png', data: card.png, description: card.altText });
    embed.image = { url: 'attachment://card.png' };
  }
  if (section === 'ranked' && (profile.ranked ?? []).length > 0) {
    const chart = await renderRankedStandingChart({
      title: t.t('player:profile.rankedChartTitle', { name: profile.player_name }),
      regions: (profile.ranked ?? []).slice(0, MAX_PAGE_ROWS).map((r) => ({
        label: regionLabel(t, r.region),
        mmr: r.mmr ?? 0,
        wins: r.wins ?? 0,
        losses: r.losses ?? 0,
        history: (rankedHistory ?? []).flatMap((point) => {
          const standing = point.ranked.find((kept) => kept.region === r.region);
          return standing === undefined ? [] : [{ at: point.at, mmr: standing.mmr }];
        }),
      })),
      locale: t.locale,
      now: now ?? 0,
      labels: {
        mmr: t.t('player:profile.mmr'),
        wins: t.t('player:profile.wins'),
        losses: t.t('player:profile.losses'),
        none: t.t('player:profile.empty.ranked'),
        best: t.t('player:card.chart.best'),
        history: t.t('player:card.chart.history'),
        noHistory: t.t('player:card.chart.noHistory'),
        outOfRange: (count) => t.t('player:card.chart.outOfRange', { points: t.n(count) }),
      },
    });
    if (chart !== undefined) {
      files.push({ name: 'ranked.png', data: chart.png, description: chart.altText });
      embed.image = { url: 'attachment://ranked.png' };
    }
  }

  const components: Row[] = [];
  if (menuId) {
    components.push(
      selectRow(
        menuId,
        PROFILE_SECTIONS.map((value) => ({
          label: t.t(`player:sections.${value}`),
          value,
          default: value === section,
        })),
        t.t('player:sections.placeholder'),
      ),
    );
  }
  return { embeds: [embed], components, files };
}

export { renderMatches, type MatchesView } from './matches.ts';

export function renderListings(
  t: Translator,
  { name, data, page, pager, past }: PageView<PlayerListings>,
  skinName: (index: number) => string | undefined,
): ReplyPayload {
  const lines = pageRows(data.listings, data.per_page ?? 10).map((l) =>
    t.t('player:listings.line', {
      skin:
        l.skin_index === undefined
          ? t.t('common:unknown')
          : text(skinName(l.skin_index) ?? unknownName(t, 'skin', l.skin_index), 100),
      price: num(t, l.price),
      when: pastTimestamp(l.listed_at, 'R', past),
    }),
  );
  const embed = fit({
    color: Colors.gold,
    title: t.t('player:listings.title', { name: text(name, 100) }),
    description: lines.length > 0 ? lines.join('\n') : t.t('player:listings.none'),
  });
  const row = pageRow(t, {
    pager,
    page,
    hasNext: data.listings.length >= (data.per_page ?? 10),
  });
  return { embeds: [embed], components: row ? [row] : [] };
}

export function renderPosts(
  t: Translator,
  { name, data, page, pager, past }: PageView<PlayerPosts>,
): ReplyPayload {
  // Discord does not render timestamps in field names: the date goes into the value.
  const fields = pageRows(data.posts, data.per_page ?? 10).map((post) =>
    field(
      t.t('player:posts.meta', { votes: num(t, post.votes), comments: num(t, post.comment_count) }),
      `${text(post.text, 900)}\n${pastTimestamp(post.date, 'R', past)}`,
      false,
    ),
  );
  const embed = fit({
    color: Colors.neutral,
    title: t.t('player:posts.title', { name: text(name, 100) }),
    ...(fields.length > 0 ? { fields } : { description: t.t('player:posts.none') }),
  });
  const hasNext = data.posts.length >= (data.per_page ?? 10);
  // Nothing to page (the first page, and no next one): no buttons rather than three disabled ones.
  const row = page <= 1 && !hasNext ? undefined : pageRow(t, { pager, page, hasNext });
  return { embeds: [embed], components: row ? [row] : [] };
}

/**
 * `/player inventory`: every skin, paged, with rarity, price and value (`renderInventoryPage` in
 * `market.ts`, beside the other market views); `extras` brings the prices, rarities and buttons.
 */
export function renderInventory(
  t: Translator,
  name: string,
  items: PlayerInventory,
  skinName: (index: number) => string | undefined,
  extras: Omit<InventoryView, 'name' | 'items' | 'skinName'> = {},
): ReplyPayload {
  return renderInventoryPage(t, {
    ...extras,
    name,
    items: items.map((item) => ({ skinIndex: item.skin_index, count: item.count ?? 0 })),
    skinName,
  });
}

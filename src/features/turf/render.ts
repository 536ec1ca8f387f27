import type {
  TurfClan,
  TurfClanEarnings,
  TurfClanPlayers,
  TurfPlayer,
  TurfPlayerContributions,
  TurfPlayerEarnings,
  TurfStatus,
} from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { turfDay, turfDayDate } from '../../api/turf-days.ts';
import { turfMapName } from '../../api/turf-maps.ts';
import { field, fit, MAX_PAGE_ROWS, num, text, timestamp } from '../../render/common.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';

export { turfDay, turfDayDate } from '../../api/turf-days.ts';

const NAME_MAX = 48;
/** Days listed in the "recent days" fields. */
export const RECENT_DAYS = 7;
/** Contributors listed for a clan's day. */
export const TOP_CONTRIBUTORS = 10;

/** A turf map's name: the spec's names for 0, 2, 3; "Map <id>" otherwise. */
export function mapLabel(t: Translator, mapId: number): string {
  return turfMapName(mapId) ?? t.t('turf:mapId', { id: mapId });
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A turf day's date. Turf days are UTC days, so the date is formatted in UTC: a Discord timestamp would
 * show the reader's local date, which west of Greenwich is the day before.
 */
export function dayDate(t: Translator, day: number): string {
  let format = dayFormats.get(t.locale);
  if (!format) {
    format = new Intl.DateTimeFormat(t.locale, { timeZone: 'UTC', day: 'numeric', month: 'short' });
    dayFormats.set(t.locale, format);
  }
  return format.format(turfDayDate(day));
}

function dayLabel(t: Translator, day: number): string {
  return t.t('turf:day', { day: t.n(day), date: dayDate(t, day) });
}

/** "Day 64 (20 May) · ends in 11 hours": the day of the reply and when it rolls over. */
function todayLine(t: Translator, day: number): string {
  return t.t('turf:today', { day: dayLabel(t, day), end: timestamp(turfDayDate(day + 1), 'R') });
}

export interface TurfStatusView {
  readonly status: TurfStatus;
  readonly now: number;
}

/** Every turf map with its holder and today's top five clans. */
export function renderTurfStatus(t: Translator, { status, now }: TurfStatusView): ReplyPayload {
  const day = status.day ?? turfDay(now);
  const maps = [...status.maps].sort((a, b) => a.map_id - b.map_id);
  const fields = maps.slice(0, MAX_PAGE_ROWS).map((map) => {
    const owner = map.owner
      ? t.t('turf:status.owner', { clan: text(map.owner.clan_name, NAME_MAX) })
      : t.t('turf:status.noOwner');
    const top = (map.top_clans ?? []).slice(0, 5).map((clan, index) =>
      t.t('turf:status.topLine', {
        count: clan.points ?? 0,
        position: t.n(clan.position ?? index + 1),
        clan: text(clan.clan_name, NAME_MAX),
        points: num(t, clan.points),
      }),
    );
    const value = [owner, ...(top.length > 0 ? top : [t.t('turf:status.noClans')])].join('\n');
    return field(`${map.owner ? '👑' : '🏳️'} ${mapLabel(t, map.map_id)}`, value, false);
  });
  const held = maps.filter((map) => map.owner).length;
  return {
    embeds: [
      fit({
        color: held > 0 ? Colors.gold : Colors.neutral,
        title: t.t('turf:status.title'),
        description: [todayLine(t, day), maps.length === 0 ? t.t('turf:status.noMaps') : '']
          .filter(Boolean)
          .join('\n'),
        fields,
        footer: {
          text: t.t('turf:status.footer', { count: maps.length, held: t.n(held), maps: t.n(maps.length) }),
        },
      }),
    ],
  };
}

function sumKr(rows: ReadonlyArray<{ kr?: number | undefined }>): number {
  return rows.reduce((sum, row) => sum + (row.kr ?? 0), 0);
}

/** The latest days that paid something, newest first: a day of 0 KR says nothing and is left out. */
function earningLines(
  t: Translator,
  rows: ReadonlyArray<{ day: number; kr?: number | undefined }>,
): string[] {
  return rows
    .filter((row) => row.kr !== undefined && row.kr > 0)
    .sort((a, b) => b.day - a.day)
    .slice(0, RECENT_DAYS)
    .map((row) => t.t('turf:earningLine', { day: dayLabel(t, row.day), kr: num(t, row.kr ?? 0) }));
}

export interface TurfClanView {
  readonly clan: TurfClan;
  readonly earnings: TurfClanEarnings;
  readonly players: TurfClanPlayers;
  readonly now: number;
}

/** A clan's turf standing today, the maps it holds, its earnings per day and today's top contributors. */
export function renderTurfClan(t: Translator, { clan, earnings, players, now }: TurfClanView): ReplyPayload {
  const day = players.day ?? turfDay(now);
  const owned = clan.maps_owned ?? [];
  const contributors = [...players.players]
    .sort((a, b) => (b.points ?? 0) - (a.points ?? 0))
    .slice(0, TOP_CONTRIBUTORS)
    .map((p, index) =>
      t.t('turf:clan.contributorLine', {
        count: p.points ?? 0,
        position: t.n(index + 1),
        name: text(p.player_name ?? `#${p.player_id}`, NAME_MAX),
        points: num(t, p.points),
        kills: num(t, p.kills),
        deaths: num(t, p.deaths),
      }),
    );
  const earned = earningLines(t, earnings.days);
  const fields = [
    field(
      t.t('turf:clan.position'),
      clan.position === null || clan.position === undefined
        ? t.t('turf:clan.unranked')
        : `**#${t.n(clan.position)}**`,
    ),
    field(t.t('turf:clan.points'), num(t, clan.points)),
    field(
      t.t('turf:clan.mapsOwned'),
      owned.length > 0
        ? owned
            .slice(0, MAX_PAGE_ROWS)
            .map((id) => `👑 ${mapLabel(t, id)}`)
            .join('\n')
        : t.t('common:none'),
    ),
    field(t.t('turf:clan.earnings'), earned.length > 0 ? earned.join('\n') : t.t('turf:noEarnings'), false),
    field(t.t('turf:totalEarned'), t.t('turf:kr', { kr: num(t, sumKr(earnings.days)) })),
    field(
      t.t('turf:clan.contributors', { day: dayLabel(t, day) }),
      contributors.length > 0 ? contributors.join('\n') : t.t('turf:clan.noContributors'),
      false,
    ),
  ];
  return {
    embeds: [
      fit({
        color: owned.length > 0 ? Colors.gold : Colors.info,
        title: t.t('turf:clan.title', { name: text(clan.clan_name, 200) }),
        description: todayLine(t, turfDay(now)),
        fields,
        footer: { text: t.t('turf:clan.footer', { id: clan.clan_id }) },
      }),
    ],
  };
}

export interface MapSummary {
  readonly mapId: number;
  readonly points: number;
  readonly kills: number;
  readonly days: number;
}

export interface DaySummary {
  readonly day: number;
  readonly points: number;
  readonly kills: number;
}

/** Contributions summed per map (most points first) and per day (newest first). */
export function summarizeContributions(contributions: TurfPlayerContributions['contributions']): {
  maps: MapSummary[];
  days: DaySummary[];
} {
  const maps = new Map<number, { points: number; kills: number; days: Set<number> }>();
  const days = new Map<number, { points: number; kills: number }>();
  for (const row of contributions) {
    const map = maps.get(row.map_id) ?? { points: 0, kills: 0, days: new Set<number>() };
    map.points += row.points ?? 0;
    map.kills += row.kills ?? 0;
    map.days.add(row.day);
    maps.set(row.map_id, map);
    const day = days.get(row.day) ?? { points: 0, kills: 0 };
    day.points += row.points ?? 0;
    day.kills += row.kills ?? 0;
    days.set(row.day, day);
  }
  return {
    maps: [...maps]
      .map(([mapId, m]) => ({ mapId, points: m.points, kills: m.kills, days: m.days.size }))
      .sort((a, b) => b.points - a.points || a.mapId - b.mapId),
    days: [...days].map(([day, d]) => ({ day, ...d })).sort((a, b) => b.day - a.day),
  };
}

export interface TurfPlayerView {
  readonly player: TurfPlayer;
  readonly contributions: TurfPlayerContributions;
  readonly earnings: TurfPlayerEarnings;
  readonly now: number;
}

/** A player's turf season: points per map and per recent day, and what the clan paid them. */
export function renderTurfPlayer(
  t: Translator,
  { player, contributions, earnings, now }: TurfPlayerView,
): ReplyPayload {
  const summary = summarizeContributions(contributions.contributions);
  const totalPoints = summary.maps.reduce((sum, m) => sum + m.points, 0);
  const totalKills = summary.maps.reduce((sum, m) => sum + m.kills, 0);
  const mapLines = summary.maps.slice(0, MAX_PAGE_ROWS).map((m) =>
    t.t('turf:player.mapLine', {
      count: m.points,
      map: mapLabel(t, m.mapId),
      points: num(t, m.points),
      kills: num(t, m.kills),
      days: num(t, m.days),
    }),
  );
  // A day with no points and no kills (a row the game keeps for the player) says nothing: left out.
  const scored = summary.days.filter((d) => d.points > 0 || d.kills > 0);
  const dayLines = scored.slice(0, RECENT_DAYS).map((d) =>
    t.t('turf:player.dayLine', {
      count: d.points,
      day: dayLabel(t, d.day),
      points: num(t, d.points),
      kills: num(t, d.kills),
    }),
  );
  const earned = earningLines(t, earnings.earnings);
  const clan = player.clan_name
    ? t.t('turf:player.clan', { clan: text(player.clan_name, NAME_MAX) })
    : t.t('turf:player.noClan');
  const fields = [
    field(t.t('turf:player.points'), num(t, totalPoints)),
    field(t.t('turf:player.kills'), num(t, totalKills)),
    field(t.t('turf:player.daysPlayed'), num(t, scored.length)),
    field(
      t.t('turf:player.perMap'),
      mapLines.length > 0 ? mapLines.join('\n') : t.t('turf:player.noContributions'),
      false,
    ),
    field(
      t.t('turf:player.recentDays'),
      dayLines.length > 0 ? dayLines.join('\n') : t.t('turf:player.noContributions'),
      false,
    ),
    field(t.t('turf:player.earnings'), earned.length > 0 ? earned.join('\n') : t.t('turf:noEarnings'), false),
    field(t.t('turf:totalEarned'), t.t('turf:kr', { kr: num(t, sumKr(earnings.earnings)) })),
  ];
  return {
    embeds: [
      fit({
        color: sumKr(earnings.earnings) > 0 ? Colors.gold : Colors.info,
        title: t.t('turf:player.title', { name: text(player.player_name, 200) }),
        description: `${clan}\n${todayLine(t, turfDay(now))}`,
        fields,
        footer: { text: t.t('turf:player.footer', { id: player.player_id }) },
      }),
    ],
  };
}

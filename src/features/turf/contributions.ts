import type { APIEmbedField } from 'discord.js';
import type { TurfClanPlayers } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { field, fit, num, text } from '../../render/common.ts';
import type { ReplyPayload } from '../../render/payload.ts';
import { mapLabel, renderTurfClan, type TurfClanView } from './render.ts';
import { dayLabel, replyDay } from './labels.ts';

/**
 * `/turf clan`'s per-map part: today's contributions of the clan's members on each turf map (points,
 * kills, deaths), from `/territorial-wars/clan/{id}/players?map_id=`, one field per map after the
 * clan's standing.
 */
export const CONTRIBUTORS_PER_MAP = 8;
const NAME_MAX = 32;

export interface MapContributions {
  readonly mapId: number;
  readonly players: TurfClanPlayers;
}

/** A map's contributors, most points first (then by name: ties keep one order). */
function ranked(players: TurfClanPlayers['players']): TurfClanPlayers['players'] {
  return [...players].sort(
    (a, b) => (b.points ?? 0) - (a.points ?? 0) || (a.player_name ?? '').localeCompare(b.player_name ?? ''),
  );
}

export function mapContributionField(t: Translator, map: MapContributions, today: number): APIEmbedField {
  const players = ranked(map.players.players);
  const lines = players.slice(0, CONTRIBUTORS_PER_MAP).map((p, index) =>
    t.t('turf:contributions.line', {
      count: p.points ?? 0,
      position: t.n(index + 1),
      name: p.player_name === undefined ? `#${p.player_id}` : text(p.player_name, NAME_MAX),
      points: num(t, p.points),
      kills: num(t, p.kills),
      deaths: num(t, p.deaths),
    }),
  );
  const more = players.length - lines.length;
  if (more > 0) lines.push(t.t('turf:contributions.more', { n: t.n(more) }));
  const day = replyDay(map.players.day, today);
  return field(
    t.t('turf:contributions.title', { map: mapLabel(t, map.mapId), day: dayLabel(t, day) }),
    lines.length > 0 ? lines.join('\n') : t.t('turf:contributions.none'),
    false,
  );
}

/**
 * The clan's day over every map, summed from the per-map replies by player: the same figures as the
 * unfiltered `/players` call, without spending a request on it. Bounded by the replies' own lists.
 */
export function sumOverMaps(clanId: number, day: number, maps: readonly MapContributions[]): TurfClanPlayers {
  const players = new Map<number, TurfClanPlayers['players'][number]>();
  for (const map of maps) {
    for (const p of map.players.players) {
      const sum = players.get(p.player_id);
      const add = (a: number | undefined, b: number | undefined) =>
        a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
      players.set(
        p.player_id,
        sum
          ? withDefined({
              ...sum,
              player_name: sum.player_name ?? p.player_name,
              points: add(sum.points, p.points),
              kills: add(sum.kills, p.kills),
              deaths: add(sum.deaths, p.deaths),
            })
          : p,
      );
    }
  }
  return { clan_id: clanId, day, players: [...players.values()] };
}

/** The record without its absent fields (the schemas' records never hold a key set to undefined). */
function withDefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}

export interface TurfClanMapsView extends Omit<TurfClanView, 'players'> {
  /** Today's contributions on each turf map, in map order. */
  readonly maps: readonly MapContributions[];
  readonly today: number;
}

/** The clan's turf standing (as before), then a field per map with today's contributors. */
export function renderTurfClanWithMaps(t: Translator, view: TurfClanMapsView): ReplyPayload {
  const players = sumOverMaps(view.clan.clan_id, replyDay(view.maps[0]?.players.day, view.today), view.maps);
  const base = renderTurfClan(t, { ...view, players });
  const [embed, ...rest] = base.embeds ?? [];
  if (!embed) return base;
  const maps = view.maps.map((map) => mapContributionField(t, map, view.today));
  return { ...base, embeds: [fit({ ...embed, fields: [...(embed.fields ?? []), ...maps] }), ...rest] };
}

import type { APIEmbed } from 'discord.js';
import type { Translator } from '../i18n/index.ts';
import { turfDayDate } from '../api/turf-days.ts';
import { turfMapName } from '../api/turf-maps.ts';
import { field, fit, num, text, timestamp } from '../render/common.ts';
import { unknownName } from '../render/names.ts';
import { Colors, type ReplyPayload } from '../render/payload.ts';

/**
 * Announcements posted in subscribed channels, in the guild's language: featured maps (edited when the
 * map stops being featured), turf maps changing hands, a clan's gains and losses and its daily earnings.
 */
const NAME_MAX = 100;

export interface MapAnnouncement {
  readonly mapId?: number | undefined;
  readonly mapName?: string | undefined;
  readonly creator?: string | undefined;
  /** Upvotes and plays, from the map's record when it could be read (the event does not carry them). */
  readonly votes?: number | undefined;
  readonly plays?: number | undefined;
  /** When the map was featured (epoch ms). */
  readonly featuredAt: number;
}

/**
 * The game's link that starts a community map (`https://krunker.io/?play=<name>`), or undefined for a
 * name that cannot be one. Every character but letters, digits and `-` is percent-encoded, so that no
 * markdown character reaches the message.
 */
export function playUrl(mapName: string | undefined): string | undefined {
  const name = mapName?.trim() ?? '';
  if (name === '' || name.length > 100) return undefined;
  const encoded = [...new TextEncoder().encode(name)]
    .map((byte) =>
      /[A-Za-z0-9-]/.test(String.fromCharCode(byte)) && byte < 0x80
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
  return `https://krunker.io/?play=${encoded}`;
}

/** Votes, plays and the play link: what is known of them (the unfeatured edit keeps them too). */
function mapFields(t: Translator, map: MapAnnouncement) {
  const fields = [];
  if (map.votes !== undefined) fields.push(field(t.t('announcements:maps.votes'), num(t, map.votes)));
  if (map.plays !== undefined) fields.push(field(t.t('announcements:maps.plays'), num(t, map.plays)));
  const url = playUrl(map.mapName);
  if (url) fields.push(field(t.t('announcements:maps.play'), url, false));
  return fields;
}

function mapName(t: Translator, map: MapAnnouncement): string {
  return map.mapName?.trim()
    ? text(map.mapName, NAME_MAX)
    : map.mapId === undefined
      ? t.t('common:unknown')
      : unknownName(t, 'map', map.mapId);
}

function creator(t: Translator, map: MapAnnouncement): string {
  return map.creator?.trim() ? text(map.creator, NAME_MAX) : t.t('announcements:maps.unknownCreator');
}

function footer(t: Translator): NonNullable<APIEmbed['footer']> {
  return { text: t.t('common:footer') };
}

/** A newly featured map; `roleId` adds that role's ping above the embed. */
export function renderMapFeatured(t: Translator, map: MapAnnouncement, roleId?: string): ReplyPayload {
  const name = mapName(t, map);
  const embed: APIEmbed = {
    color: Colors.gold,
    title: t.t('announcements:maps.featuredTitle', { name }),
    description: t.t('announcements:maps.featuredDescription', { name, creator: creator(t, map) }),
    fields: [
      field(t.t('announcements:maps.creator'), creator(t, map)),
      field(t.t('announcements:maps.featuredAt'), timestamp(map.featuredAt, 'f')),
      ...mapFields(t, map),
    ],
    timestamp: new Date(map.featuredAt).toISOString(),
    footer: footer(t),
  };
  return {
    ...(roleId === undefined ? {} : { content: `<@&${roleId}>` }),
    embeds: [fit(embed)],
  };
}

/** The featured map's announcement once the map is no longer featured (it replaces the earlier message). */
export function renderMapUnfeatured(t: Translator, map: MapAnnouncement, unfeaturedAt: number): ReplyPayload {
  const name = mapName(t, map);
  const embed: APIEmbed = {
    color: Colors.neutral,
    title: t.t('announcements:maps.unfeaturedTitle', { name }),
    description: t.t('announcements:maps.unfeaturedDescription', { name, creator: creator(t, map) }),
    fields: [
      field(t.t('announcements:maps.creator'), creator(t, map)),
      field(t.t('announcements:maps.featuredAt'), timestamp(map.featuredAt, 'f')),
      field(t.t('announcements:maps.unfeaturedAt'), timestamp(unfeaturedAt, 'f')),
      ...mapFields(t, map),
    ],
    timestamp: new Date(unfeaturedAt).toISOString(),
    footer: footer(t),
  };
  return { content: '', embeds: [fit(embed)] };
}

export interface TurfClanRef {
  readonly clanId: number;
  readonly clanName: string;
}

export interface TurfOwnerChangeView {
  readonly mapId: number;
  readonly day?: number | undefined;
  readonly previous: TurfClanRef | null;
  readonly current: TurfClanRef | null;
  /** When the change was seen (epoch ms). */
  readonly at: number;
  /** The subscription's clan: the change is told as its gain or loss. */
  readonly clan?: TurfClanRef | undefined;
}

export function turfMapLabel(t: Translator, mapId: number): string {
  return turfMapName(mapId) ?? t.t('announcements:turf.mapFallback', { id: mapId });
}

function clanName(clan: TurfClanRef): string {
  return text(clan.clanName, NAME_MAX);
}

function changeLine(t: Translator, change: TurfOwnerChangeView, map: string): string {
  const { previous, current } = change;
  if (previous && current) {
    return t.t('announcements:turf.taken', { map, current: clanName(current), previous: clanName(previous) });
  }
  if (current) return t.t('announcements:turf.claimed', { map, current: clanName(current) });
  if (previous) return t.t('announcements:turf.lost', { map, previous: clanName(previous) });
  return t.t('announcements:turf.nobody', { map });
}

/** A turf map that changed hands; for a clan's subscription, told as that clan's gain or loss. */
export function renderTurfOwnerChange(t: Translator, change: TurfOwnerChangeView): ReplyPayload {
  const map = turfMapLabel(t, change.mapId);
  const clan = change.clan;
  const gained = clan !== undefined && change.current?.clanId === clan.clanId;
  const lost = clan !== undefined && !gained && change.previous?.clanId === clan.clanId;
  const title = gained
    ? t.t('announcements:turf.gainedTitle', { clan: clanName(clan), map })
    : lost
      ? t.t('announcements:turf.lostTitle', { clan: clanName(clan), map })
      : t.t('announcements:turf.title', { map });
  const fields =
    change.day === undefined ? [] : [field(t.t('announcements:turf.dayField'), num(t, change.day))];
  const embed: APIEmbed = {
    color: gained ? Colors.success : lost ? Colors.danger : Colors.info,
    title,
    description: changeLine(t, change, map),
    fields,
    timestamp: new Date(change.at).toISOString(),
    footer: footer(t),
  };
  return { embeds: [fit(embed)] };
}

export interface TurfDailyView {
  readonly clan: TurfClanRef;
  readonly day: number;
  readonly kr: number;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A turf day's date, in UTC: turf days are UTC days, and a Discord timestamp would show the reader's own. */
function utcDate(t: Translator, ms: number): string {
  let format = dateFormats.get(t.locale);
  if (!format) {
    format = new Intl.DateTimeFormat(t.locale, { timeZone: 'UTC', dateStyle: 'medium' });
    dateFormats.set(t.locale, format);
  }
  return format.format(ms);
}

/** What a clan earned in the turf wars on a finished day. */
export function renderTurfDaily(t: Translator, daily: TurfDailyView): ReplyPayload {
  const clan = clanName(daily.clan);
  const day = num(t, daily.day);
  const embed: APIEmbed = {
    color: daily.kr > 0 ? Colors.gold : Colors.neutral,
    title: t.t('announcements:turf.dailyTitle', { clan, day }),
    description:
      daily.kr > 0
        ? t.t('announcements:turf.dailyDescription', { clan, day, kr: num(t, daily.kr) })
        : t.t('announcements:turf.dailyNothing', { clan, day }),
    fields: [field(t.t('announcements:turf.dayDate'), utcDate(t, turfDayDate(daily.day)))],
    timestamp: new Date(turfDayDate(daily.day + 1)).toISOString(),
    footer: footer(t),
  };
  return { embeds: [fit(embed)] };
}

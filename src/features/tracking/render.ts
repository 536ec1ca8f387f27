import type { APIEmbed } from 'discord.js';
import type { TrackClan, TrackLevel, TrackMatch } from './events.ts';
import type { Translator } from '../../i18n/index.ts';
import { field, fit, num, regionLabel, text, timestamp } from '../../render/common.ts';
import { unknownName } from '../../render/names.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';

/**
 * What tracking posts in a channel (a ranked match finished, a level up, a clan change) and `/track list`.
 */
const NAME_MAX = 100;
const MAX_LIST_LINES = 50;

function footer(t: Translator): NonNullable<APIEmbed['footer']> {
  return { text: t.t('common:footer') };
}

function ping(roleId: string | undefined): { content?: string } {
  return roleId === undefined ? {} : { content: `<@&${roleId}>` };
}

function signed(t: Translator, value: number): string {
  const shown = num(t, Math.abs(value));
  return value > 0 ? `+${shown}` : value < 0 ? `−${shown}` : shown;
}

export function renderTrackMatch(t: Translator, match: TrackMatch, roleId?: string): ReplyPayload {
  const name = text(match.playerName, NAME_MAX);
  const result =
    match.victory === 1 ? 'win' : match.victory === 0 ? 'loss' : match.victory === -1 ? 'draw' : 'unknown';
  const map =
    match.mapName !== undefined && match.mapName.trim() !== ''
      ? text(match.mapName, NAME_MAX)
      : match.map === undefined
        ? '—'
        : unknownName(t, 'map', match.map);
  const fields = [
    field(t.t('track:post.result'), t.t(`track:post.results.${result}`)),
    field(
      t.t('track:post.kda'),
      `${num(t, match.kills)} / ${num(t, match.deaths)} / ${num(t, match.assists)}`,
    ),
    field(t.t('track:post.score'), num(t, match.score)),
    field(t.t('track:post.map'), map),
    field(t.t('track:post.region'), regionLabel(t, match.region)),
  ];
  if (match.mmr !== undefined)
    fields.push(
      field(
        t.t('track:post.mmr'),
        match.mmrChange === undefined
          ? num(t, match.mmr)
          : t.t('track:post.mmrChange', { mmr: num(t, match.mmr), change: signed(t, match.mmrChange) }),
      ),
    );
  if (match.playedAt !== undefined)
    fields.push(field(t.t('track:post.played'), timestamp(match.playedAt, 'R')));
  const embed: APIEmbed = {
    color: match.victory === 1 ? Colors.win : match.victory === 0 ? Colors.loss : Colors.draw,
    title: t.t('track:post.matchTitle', { name }),
    description: t.t('track:post.matchId', { id: match.matchId }),
    fields,
    footer: footer(t),
  };
  return { ...ping(roleId), embeds: [fit(embed)] };
}

export function renderTrackLevel(t: Translator, level: TrackLevel, roleId?: string): ReplyPayload {
  const name = text(level.playerName, NAME_MAX);
  const embed: APIEmbed = {
    color: Colors.gold,
    title: t.t('track:post.levelTitle', { name, level: num(t, level.to) }),
    description: t.t('track:post.levelDescription', { name, from: num(t, level.from), to: num(t, level.to) }),
    footer: footer(t),
  };
  return { ...ping(roleId), embeds: [fit(embed)] };
}

export function renderTrackClan(t: Translator, change: TrackClan, roleId?: string): ReplyPayload {
  const name = text(change.playerName, NAME_MAX);
  const from = change.from === '' ? undefined : text(change.from, NAME_MAX);
  const to = change.to === '' ? undefined : text(change.to, NAME_MAX);
  const description =
    from === undefined
      ? t.t('track:post.clanJoined', { name, to: to ?? '' })
      : to === undefined
        ? t.t('track:post.clanLeft', { name, from })
        : t.t('track:post.clanMoved', { name, from, to });
  const embed: APIEmbed = {
    color: Colors.info,
    title: t.t('track:post.clanTitle', { name }),
    description,
    footer: footer(t),
  };
  return { ...ping(roleId), embeds: [fit(embed)] };
}

export interface TrackListEntry {
  readonly id: string;
  readonly playerName: string;
  readonly channelId: string;
  readonly roleId: string | undefined;
  readonly disabledReason: string | undefined;
  /** When it was looked at last, if ever. */
  readonly refreshedAt: number | undefined;
}

export interface TrackListView {
  readonly entries: readonly TrackListEntry[];
  readonly limit: number;
  /** The interval the budget keeps for tracked players now (ms). */
  readonly intervalMs: number;
  /** The target interval (ms); longer `intervalMs` means the budget is short. */
  readonly targetMs: number;
}

function minutes(t: Translator, ms: number): string {
  const total = Math.max(1, Math.round(ms / 60_000));
  return total < 120
    ? t.t('track:list.minutes', { n: num(t, total) })
    : t.t('track:list.hours', { n: num(t, Math.round(total / 60)) });
}

export function renderTrackList(t: Translator, view: TrackListView): ReplyPayload {
  // An embed shows about this many lines; the rest are counted, not formatted.
  const shown = view.entries.slice(0, MAX_LIST_LINES);
  const lines = shown.map((entry) => {
    const where = `<#${entry.channelId}>`;
    const role = entry.roleId === undefined ? '' : ` · <@&${entry.roleId}>`;
    const state =
      entry.disabledReason !== undefined
        ? ` · ⚠️ ${t.t(`subscriptions:reasons.${entry.disabledReason}`)}`
        : entry.refreshedAt === undefined
          ? ` · ${t.t('track:list.notYet')}`
          : ` · ${t.t('track:list.lastLook', { when: timestamp(entry.refreshedAt, 'R') })}`;
    return `\`${entry.id}\` **${text(entry.playerName, NAME_MAX)}** → ${where}${role}${state}`;
  });
  const interval =
    view.intervalMs > view.targetMs
      ? t.t('track:list.stretched', {
          interval: minutes(t, view.intervalMs),
          target: minutes(t, view.targetMs),
        })
      : t.t('track:list.interval', { interval: minutes(t, view.intervalMs) });
  const embed: APIEmbed = {
    color: Colors.info,
    title: t.t('track:list.title', { n: num(t, view.entries.length), max: view.limit }),
    description:
      lines.length === 0
        ? t.t('track:list.none')
        : [...lines, ...(view.entries.length > shown.length ? ['…'] : [])].join('\n'),
    fields: [field(t.t('track:list.intervalField'), interval, false)],
    footer: footer(t),
  };
  return { embeds: [fit(embed)], ephemeral: true };
}

export function renderTracked(
  t: Translator,
  playerName: string,
  channelId: string,
  id: string,
  notes: readonly string[] = [],
): ReplyPayload {
  const added = t.t('track:added', { name: text(playerName, NAME_MAX), channel: `<#${channelId}>`, id });
  return {
    embeds: [fit({ color: Colors.success, description: [added, ...notes].join('\n') })],
    ephemeral: true,
  };
}

export function renderUntracked(t: Translator, playerName: string, id: string): ReplyPayload {
  return {
    embeds: [
      fit({
        color: Colors.neutral,
        description: t.t('track:removed', { name: text(playerName, NAME_MAX), id }),
      }),
    ],
    ephemeral: true,
  };
}

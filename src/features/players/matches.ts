import { ButtonStyle, ComponentType, type APIButtonComponent, type APIEmbed } from 'discord.js';
import type { MatchDetails, MatchParticipant, PlayerMatch, PlayerMatches } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import {
  field,
  fit,
  num,
  pageRow,
  pageRows,
  pastTimestamp,
  percent,
  regionLabel,
  text,
  type PageView,
  type PastTimes,
  type Row,
} from '../../render/common.ts';
import { officialMapName, unknownName } from '../../render/names.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { DiscordLimits, embedLength, textLength, truncate } from '../../render/text.ts';

/**
 * The button that opens one match: drawn on `/player matches`, answered by `/match`, whose name its custom
 * id carries (`match:open:<id>~…`). Both commands build their ids from this one table, so they agree.
 */
export const OPEN_MATCH_BUTTON = { command: 'match', actions: { open: ['id'] } } as const;

export type TeamResult = 'win' | 'loss' | 'draw' | 'unknown';

export interface Team {
  /** The `team` value of its participants; undefined when the API left it out. */
  readonly team: number | undefined;
  readonly result: TeamResult;
  readonly roundsWon: number | undefined;
  /** In the API's order (score descending within the team). */
  readonly players: readonly MatchParticipant[];
}

const RESULT_COLORS: Readonly<Record<TeamResult, number>> = {
  win: Colors.win,
  loss: Colors.loss,
  draw: Colors.draw,
  unknown: Colors.neutral,
};

const RESULT_MARKS: Readonly<Record<TeamResult, string>> = {
  win: '🟩',
  loss: '🟥',
  draw: '⬜',
  unknown: '▫️',
};

/** One overview embed plus one per team, within Discord's 10 embeds. */
const MAX_TEAMS = DiscordLimits.embeds - 1;

/**
 * Participants grouped by team, keeping the API's order (by team, then score). A team's result is its
 * players' `victory` (1 win, 0 loss, -1 draw); a match in which no team won is a draw for every team,
 * since some replies give a drawn match `victory` 0 on both sides.
 */
export function groupTeams(participants: readonly MatchParticipant[]): Team[] {
  const groups = new Map<number | undefined, MatchParticipant[]>();
  for (const participant of participants) {
    const group = groups.get(participant.team);
    if (group) group.push(participant);
    else groups.set(participant.team, [participant]);
  }
  const raw = [...groups].map(([team, players]) => {
    const victory = players.find((p) => p.victory !== undefined)?.victory;
    const result: TeamResult =
      victory === 1 ? 'win' : victory === 0 ? 'loss' : victory === -1 ? 'draw' : 'unknown';
    const roundsWon = players.find((p) => p.rounds_won !== undefined)?.rounds_won;
    return { team, result, roundsWon, players };
  });
  const nobodyWon = raw.length > 1 && raw.every((team) => team.result === 'loss');
  return raw.map((team) => (nobodyWon ? { ...team, result: 'draw' } : team));
}

function teamName(t: Translator, team: number | undefined): string {
  return team === undefined ? t.t('match:teamUnknown') : t.t('match:team', { team });
}

function matchDuration(t: Translator, seconds: number | undefined): string {
  if (seconds === undefined || seconds < 0) return '—';
  return t.t('match:durationValue', {
    m: t.n(Math.floor(seconds / 60)),
    s: String(seconds % 60).padStart(2, '0'),
  });
}

function participantLine(t: Translator, p: MatchParticipant): string {
  return t.t('match:participant', {
    name: text(p.player_name, 40),
    score: num(t, p.score),
    kills: num(t, p.kills),
    deaths: num(t, p.deaths),
    assists: num(t, p.assists),
    damage: num(t, p.damage_done),
    accuracy: percent(t, p.accuracy, 100),
    headshots: num(t, p.headshots),
    objective: num(t, p.objective_score),
  });
}

/**
 * As many whole lines as fit in `budget` characters, then a line saying how many were left out. A line is
 * only formatted when reached, so a team of thousands costs no more than the lines that fit.
 */
function linesWithin<T>(
  t: Translator,
  items: readonly T[],
  format: (item: T) => string,
  budget: number,
): string {
  const kept: string[] = [];
  let used = 0;
  for (const [i, item] of items.entries()) {
    const line = format(item);
    const more = t.t('match:more', { count: items.length - i });
    const cost = textLength(line) + 1;
    const restAfter = i < items.length - 1 ? textLength(more) + 1 : 0;
    if (used + cost + restAfter > budget) {
      kept.push(more);
      break;
    }
    kept.push(line);
    used += cost;
  }
  return kept.join('\n');
}

export interface MatchView {
  readonly match: MatchDetails;
  /** The official map's name when known (raw, not escaped); otherwise "Unknown map 7". */
  readonly mapName: string | undefined;
  /** Now, for the match's date (a date after it is shown as now and reported). */
  readonly past?: PastTimes | undefined;
}

/** A ranked match: an overview, then one embed per team coloured by its result. */
export function renderMatch(t: Translator, { match, mapName, past }: MatchView): ReplyPayload {
  const participants = match.participants ?? [];
  const teams = groupTeams(participants).slice(0, MAX_TEAMS);
  const map =
    match.map === undefined
      ? '—'
      : mapName?.trim()
        ? t.t('match:mapNamed', { name: text(mapName, 80), id: match.map })
        : unknownName(t, 'map', match.map);

  const scoreline = teams
    .map((team) => {
      const vars = { mark: RESULT_MARKS[team.result], team: teamName(t, team.team) };
      // "1 round", "3 rounds": the count picks the plural form; a count the game left out says so.
      return team.roundsWon === undefined
        ? t.t('match:scoreTeamUnknown', vars)
        : t.t('match:scoreTeam', { ...vars, count: team.roundsWon });
    })
    .join(' · ');

  const overview = fit({
    color: Colors.info,
    title: t.t('match:title', { id: match.match_id }),
    ...(scoreline ? { description: scoreline } : {}),
    fields: [
      field(t.t('match:map'), map),
      field(
        t.t('match:date'),
        match.date
          ? `${pastTimestamp(match.date, 'f', past)} (${pastTimestamp(match.date, 'R', past)})`
          : '—',
      ),
      field(t.t('match:duration'), matchDuration(t, match.duration)),
      field(t.t('match:season'), num(t, match.season)),
      field(t.t('match:region'), regionLabel(t, match.region)),
      field(t.t('match:players'), num(t, participants.length)),
    ],
    footer: { text: t.t('match:footer') },
  });

  if (teams.length === 0) {
    return { embeds: [{ ...overview, description: t.t('match:noParticipants') }] };
  }

  // Every team gets an equal share of what the overview leaves of Discord's 6000 characters.
  const share = Math.floor((DiscordLimits.embedTotal - embedLength(overview)) / teams.length);
  const teamEmbeds = teams.map((team): APIEmbed => {
    const title = t.t('match:teamTitle', {
      mark: RESULT_MARKS[team.result],
      team: teamName(t, team.team),
      result: t.t(`match:result.${team.result}`),
    });
    const footer = t.t('match:teamFooter', {
      rounds: num(t, team.roundsWon),
      kills: num(t, sum(team.players, 'kills')),
      damage: num(t, sum(team.players, 'damage_done')),
    });
    const budget = Math.min(DiscordLimits.embedDescription, share - textLength(title) - textLength(footer));
    return fit({
      color: RESULT_COLORS[team.result],
      title,
      description: linesWithin(t, team.players, (p) => participantLine(t, p), Math.max(0, budget)),
      footer: { text: footer },
    });
  });
  return { embeds: [overview, ...teamEmbeds] };
}

function sum(players: readonly MatchParticipant[], key: 'kills' | 'damage_done'): number | undefined {
  const values = players.map((p) => p[key]).filter((value): value is number => value !== undefined);
  return values.length === 0 ? undefined : values.reduce((total, value) => total + value, 0);
}

/** A match's date as a button can show it (no Discord timestamps there): "Nov 26", in UTC. */
function buttonDate(t: Translator, date: string | undefined): string | undefined {
  const at = date === undefined ? Number.NaN : Date.parse(date);
  // Dates Intl formats and a reader can believe: years 2000..9999.
  if (!Number.isFinite(at) || at < Date.UTC(2000, 0, 1) || at >= Date.UTC(10000, 0, 1)) return undefined;
  return new Intl.DateTimeFormat(t.locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(at);
}

function resultKey(victory: number | undefined): 'win' | 'loss' | 'draw' | 'unknown' {
  if (victory === 1) return 'win';
  if (victory === 0) return 'loss';
  if (victory === -1) return 'draw';
  return 'unknown';
}

function resultMark(victory: number | undefined): string {
  if (victory === 1) return '🟩';
  if (victory === 0) return '🟥';
  if (victory === -1) return '⬜';
  return '▫️';
}

export interface MatchesView extends PageView<PlayerMatches> {
  readonly season: number | undefined;
  /** The official maps' names by id (one cached `/maps` lookup for the page); none: "Unknown map 7". */
  readonly mapNames?: ReadonlyMap<number, string> | undefined;
  /** The custom id of the button that opens a match (`/match`); no buttons when undefined. */
  readonly openMatch?: ((matchId: string) => string | undefined) | undefined;
  /** The MMR each match changed, by match id, where the snapshots kept tell it (`mmrChanges`). */
  readonly mmrChanges?: ReadonlyMap<string, number> | undefined;
}

function signedMmr(t: Translator, change: number): string {
  const shown = num(t, Math.abs(change));
  return t.t('player:matches.mmr', {
    change: change > 0 ? `+${shown}` : change < 0 ? `−${shown}` : `±${shown}`,
  });
}

/** Match buttons: five to a row, in the rows the pager leaves (Discord allows five rows). */
const MATCH_BUTTON_ROWS = 4;
const BUTTONS_PER_ROW = 5;

/**
 * A match button's label: its result, map and date ("🟩 Win · Burg · Nov 26"), never the raw id; the map's
 * name is cut first so that the result and the date always fit Discord's 80 characters.
 */
function buttonLabel(
  t: Translator,
  m: PlayerMatch,
  mapNames: ReadonlyMap<number, string> | undefined,
): string {
  const parts = {
    mark: resultMark(m.victory),
    result: t.t(`player:matches.result.${resultKey(m.victory)}`),
    date: buttonDate(t, m.date) ?? '—',
  };
  const full = t.t('player:matches.button', { ...parts, map: '' });
  const room = Math.max(1, DiscordLimits.buttonLabel - textLength(full));
  // A label is plain text (no markdown to escape): the name as the game gives it, cut to the room left.
  const name = m.map === undefined ? '—' : mapNames?.get(m.map)?.trim() || unknownName(t, 'map', m.map);
  const map = truncate(name, room);
  return truncate(t.t('player:matches.button', { ...parts, map }), DiscordLimits.buttonLabel);
}

function matchButtonRows(
  t: Translator,
  matches: readonly PlayerMatch[],
  openMatch: ((matchId: string) => string | undefined) | undefined,
  mapNames: ReadonlyMap<number, string> | undefined,
): Row[] {
  if (!openMatch) return [];
  const buttons: APIButtonComponent[] = [];
  for (const m of matches.slice(0, MATCH_BUTTON_ROWS * BUTTONS_PER_ROW)) {
    const id = openMatch(m.match_id);
    if (!id) continue;
    buttons.push({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: id,
      label: buttonLabel(t, m, mapNames),
    });
  }
  const rows: Row[] = [];
  for (let at = 0; at < buttons.length; at += BUTTONS_PER_ROW) {
    rows.push({ type: ComponentType.ActionRow, components: buttons.slice(at, at + BUTTONS_PER_ROW) });
  }
  return rows;
}

/** An empty page: past the last one, or (the first) a player who has played none, in the season asked. */
function noMatches(t: Translator, name: string, page: number, season: number | undefined): string {
  if (page > 1) return t.t('player:matches.none');
  const who = text(name, 100);
  return season
    ? t.t('player:matches.noneInSeason', { name: who, season: num(t, season) })
    : t.t('player:matches.noneEver', { name: who });
}

/** A page of ranked matches: result, map by name, K/D, score, region, when; each match a button to open it. */
export function renderMatches(
  t: Translator,
  { name, data, page, season, pager, past, mapNames, openMatch, mmrChanges }: MatchesView,
): ReplyPayload {
  const perPage = data.per_page ?? 10;
  const shown = pageRows(data.matches, perPage);
  const lines = shown.map((m) => {
    const result = t.t(`player:matches.result.${resultKey(m.victory)}`);
    // The match's id is on its button (opened with a click), not repeated in the text.
    const line = t.t('player:matches.line', {
      mark: resultMark(m.victory),
      result,
      map: officialMapName(t, mapNames, m.map) ?? '—',
      kills: num(t, m.kills),
      deaths: num(t, m.deaths),
      score: num(t, m.score),
      region: regionLabel(t, m.region),
      when: pastTimestamp(m.date, 'R', past),
    });
    const change = mmrChanges?.get(m.match_id);
    return change === undefined ? line : `${line} · ${signedMmr(t, change)}`;
  });
  const embed = fit({
    color: Colors.info,
    title: t.t('player:matches.title', { name: text(name, 100) }),
    description: lines.length > 0 ? lines.join('\n') : noMatches(t, name, page, season),
    footer: {
      text: season
        ? t.t('player:matches.footerSeason', { season: num(t, season), page: num(t, page) })
        : t.t('player:matches.footerAll', { page: num(t, page) }),
    },
  });
  // Nothing on the first page: nothing to page through either.
  const row =
    page === 1 && shown.length === 0
      ? undefined
      : pageRow(t, { pager, page, hasNext: data.matches.length >= perPage });
  return {
    embeds: [embed],
    components: [...matchButtonRows(t, shown, openMatch, mapNames), ...(row ? [row] : [])],
  };
}

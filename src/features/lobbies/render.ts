import type { Lobby, LobbyList } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { field, fit, MAX_PAGE_ROWS, num, pageRow, text, timestamp, type Pager } from '../../render/common.ts';
import { modeName } from '../../render/names.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';

/**
 * The region keys of the game's lobby list (a lobby's `regionKey`, the ping list's keys). A lobby in a
 * key not listed here is still shown, under its raw key.
 */
export const LOBBY_REGIONS = [
  'de-fra',
  'us-nj',
  'us-ca',
  'sgp',
  'jb-hnd',
  'au-syd',
  'brz',
  'me-bhn',
] as const;
export type LobbyRegion = (typeof LOBBY_REGIONS)[number];

export function isLobbyRegion(value: string | undefined | null): value is LobbyRegion {
  return (LOBBY_REGIONS as readonly string[]).includes(value ?? '');
}

export { MODE_NAMES, modeName } from '../../render/names.ts';

export const LOBBIES_PER_PAGE = 10;
const MAP_MAX = 40;
/**
 * A game with less than this left (`secondsLeft`, the time to the end of its round) is about to end: by
 * the time a reader has clicked, it is over. It is left out of the list (counted in the footer).
 */
export const ENDING_SECONDS = 60;

/** A game id as the matchmaker writes them (`FRA:abc12`); anything else gets no link. */
const GAME_ID = /^[A-Za-z0-9:-]{1,40}$/;

/** The game's join link, or undefined for an id that is not a plausible game id. */
export function joinUrl(gameId: string): string | undefined {
  const id = gameId.trim();
  return GAME_ID.test(id) ? `https://krunker.io/?game=${id}` : undefined;
}

/** Whether the game ends within {@link ENDING_SECONDS} (a game whose time left is not sent is kept). */
export function isEnding(lobby: Lobby): boolean {
  return lobby.secondsLeft !== undefined && lobby.secondsLeft < ENDING_SECONDS;
}

export function regionName(t: Translator, key: string): string {
  return isLobbyRegion(key) ? t.t(`lobbies:regions.${key}`) : text(key, 32);
}

/** The share of the seats taken, 0..1 (0 when the size is not sent or not a size). */
export function fill(lobby: Lobby): number {
  const players = lobby.players ?? 0;
  const max = lobby.maxPlayers ?? 0;
  if (!Number.isFinite(players) || !Number.isFinite(max) || max <= 0 || players <= 0) return 0;
  return Math.min(1, players / max);
}

/** Whether every seat is taken: nobody can join, so the lobby gets no join link. */
export function isFull(lobby: Lobby): boolean {
  const max = lobby.maxPlayers ?? 0;
  return Number.isFinite(max) && max > 0 && (lobby.players ?? 0) >= max;
}

/**
 * Fullest first: the largest share of seats taken (8/8 before 9/10), then most players, then most time
 * left; the id keeps the order stable.
 */
export function sortLobbies(lobbies: readonly Lobby[]): Lobby[] {
  return [...lobbies].sort(
    (a, b) =>
      fill(b) - fill(a) ||
      (b.players ?? 0) - (a.players ?? 0) ||
      (b.secondsLeft ?? 0) - (a.secondsLeft ?? 0) ||
      (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : 0),
  );
}

export interface LobbiesView {
  readonly data: LobbyList;
  /** A region key, or undefined for every region. */
  readonly region: string | undefined;
  readonly page: number;
  readonly now: number;
  readonly pager: Pager;
}

/**
 * The public lobby list: counts, then the fullest lobbies with their join links (none on a full one), paged here (the list comes
 * whole). Games about to end are counted but not listed.
 */
export function renderLobbies(t: Translator, { data, region, page, now, pager }: LobbiesView): ReplyPayload {
  const shown = region === undefined ? data.games : data.games.filter((lobby) => lobby.regionKey === region);
  const sorted = sortLobbies(shown.filter((lobby) => !isEnding(lobby)));
  const ending = shown.length - sorted.length;
  const players = shown.reduce((sum, lobby) => sum + (lobby.players ?? 0), 0);
  const pages = Math.max(1, Math.ceil(sorted.length / LOBBIES_PER_PAGE));
  const current = Math.min(Math.max(1, Math.floor(Number.isFinite(page) ? page : 1)), pages);
  const offset = (current - 1) * LOBBIES_PER_PAGE;

  const lines = sorted.slice(offset, offset + LOBBIES_PER_PAGE).map((lobby) => {
    const parts = [
      t.t('lobbies:line', {
        map: text(lobby.options?.map, MAP_MAX),
        mode: modeName(t, lobby.options?.mode),
        players: num(t, lobby.players),
        max: num(t, lobby.maxPlayers),
        ends:
          lobby.secondsLeft === undefined ? '—' : timestamp(now + Math.max(0, lobby.secondsLeft) * 1000, 'R'),
      }),
    ];
    if (region === undefined) parts.push(regionName(t, lobby.regionKey));
    if (lobby.options?.custom) parts.push(t.t('lobbies:custom'));
    // A full lobby cannot be joined: no link, only the id and that it is full.
    parts.push(isFull(lobby) ? t.t('lobbies:full') : (joinUrl(lobby.gameId) ?? text(lobby.gameId, 32)));
    return parts.join(' · ');
  });

  const summary = t.t('lobbies:summary', { lobbies: t.n(shown.length), players: t.n(players) });
  const fields = [];
  if (region === undefined && data.games.length > 0) {
    const byRegion = new Map<string, { lobbies: number; players: number }>();
    for (const lobby of data.games) {
      const entry = byRegion.get(lobby.regionKey) ?? { lobbies: 0, players: 0 };
      entry.lobbies += 1;
      entry.players += lobby.players ?? 0;
      byRegion.set(lobby.regionKey, entry);
    }
    const regionLines = [...byRegion]
      .sort(([, a], [, b]) => b.players - a.players || b.lobbies - a.lobbies)
      .slice(0, MAX_PAGE_ROWS)
      .map(([key, entry]) =>
        t.t('lobbies:regionLine', {
          region: regionName(t, key),
          lobbies: t.n(entry.lobbies),
          players: t.n(entry.players),
        }),
      );
    fields.push(field(t.t('lobbies:byRegion'), regionLines.join('\n'), false));
  }

  const none = t.t(
    ending > 0 ? 'lobbies:allEnding' : region === undefined ? 'lobbies:none' : 'lobbies:noneInRegion',
  );
  const footer = [
    t.t('lobbies:footer'),
    ...(ending > 0 ? [t.t('lobbies:ending', { n: t.n(ending) })] : []),
  ].join(' · ');
  const embed = fit({
    color: Colors.info,
    title:
      region === undefined
        ? t.t('lobbies:title')
        : t.t('lobbies:titleRegion', { region: regionName(t, region) }),
    description: [summary, '', ...(lines.length > 0 ? lines : [none])].join('\n'),
    fields,
    footer: { text: footer },
  });
  const row =
    pages > 1
      ? pageRow(t, {
          pager,
          page: current,
          totalPages: pages,
          hasNext: current < pages,
        })
      : undefined;
  return { embeds: [embed], components: row ? [row] : [] };
}

import { describe, expect, it } from 'vitest';
import {
  TurfTopGrossingClansSchema,
  TurfTopPerformingClansSchema,
  TurfTopPerformingPlayersSchema,
} from '../../../src/api/schemas/index.ts';
import {
  ignoredOptions,
  renderTurfBoard,
  TURF_BOARD_ROWS,
  type TurfBoardData,
  type TurfBoardView,
} from '../../../src/features/turf/boards.ts';
import { turfIds, turfPagers } from '../../../src/features/turf/ids.ts';
import { turfDay } from '../../../src/api/turf-days.ts';
import {
  HOSTILE,
  LONG_HOSTILE,
  buttons,
  descriptionLines,
  embedOf,
  expectSafe,
  translators,
  useSandboxApi,
} from '../../support/render.ts';

/** The three turf boards: 100 rows paged 25 at a time, hostile names inert, the options that apply. */
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const TODAY = turfDay(NOW);
const { en, de } = translators;
const live = useSandboxApi({ now: () => NOW }, 'none');

function clans(count: number, name: (i: number) => string = (i) => `Clan${i + 1}`) {
  return TurfTopPerformingClansSchema.parse({
    rows: Array.from({ length: count }, (_, i) => ({
      position: i + 1,
      clan_id: 100 + i,
      clan_name: name(i),
      points: 10_000 - i * 10,
      kills: 500 - i,
      deaths: 250,
      kd: (500 - i) / 250,
    })),
  });
}

function view(rows: TurfBoardData, overrides: Partial<TurfBoardView> = {}): TurfBoardView {
  const board = rows.board;
  return {
    rows,
    day: TODAY,
    mapId: undefined,
    ignored: [],
    page: 1,
    pager: turfPagers.board(board, board === 'clans' ? TODAY : undefined, undefined, NOW),
    ...overrides,
  };
}

describe('turf boards', () => {
  it('shows 25 rows a page of the 100, with a pager that knows the last page', () => {
    const rows: TurfBoardData = { board: 'clans', data: clans(100) };
    const first = renderTurfBoard(en, view(rows));
    expectSafe(first);
    expect(embedOf(first).title).toBe('Turf · Top clans');
    const lines = descriptionLines(first);
    expect(lines[0]).toBe('Day 255 (Nov 27) · every map');
    expect(lines.slice(2)).toHaveLength(25);
    expect(lines[2]).toBe('🥇 **Clan1** · 10,000 pts · 500 K / 250 D · K/D 2.00');
    expect(lines[5]).toBe('**#4** **Clan4** · 9,970 pts · 497 K / 250 D · K/D 1.99');
    expect(embedOf(first).footer?.text).toBe('Entries: 100');
    const [previous, label, next] = buttons(first);
    expect(previous?.disabled).toBe(true);
    expect(label?.label).toBe('Page 1 of 4');
    expect(next?.disabled).toBe(false);
    const decoded = next?.id && turfIds.decode(next.id);
    expect(decoded && decoded.args).toEqual({ board: 'clans', day: String(TODAY), map: '', page: '2' });

    const last = renderTurfBoard(en, view(rows, { page: 4 }));
    expect(descriptionLines(last).slice(2)[0]).toContain('**#76** **Clan76**');
    expect(descriptionLines(last).slice(2)).toHaveLength(25);
    expect(buttons(last)[2]?.disabled).toBe(true);
    // A page past the end shows the last one.
    expect(descriptionLines(renderTurfBoard(en, view(rows, { page: 9 })))).toEqual(descriptionLines(last));
  });

  it('bounds a board to 100 rows whatever the reply holds, and has no pager on one page', () => {
    const big = renderTurfBoard(en, view({ board: 'clans', data: clans(400) }, { page: 5 }));
    expect(embedOf(big).footer?.text).toBe(`Entries: ${TURF_BOARD_ROWS}`);
    expect(buttons(big)[1]?.label).toBe('Page 4 of 4');
    const small = renderTurfBoard(en, view({ board: 'clans', data: clans(3) }));
    expect(small.components).toEqual([]);
    const empty = renderTurfBoard(en, view({ board: 'clans', data: clans(0) }));
    expect(descriptionLines(empty).at(-1)).toBe('Nobody is on this board yet.');
  });

  it('keeps hostile clan and player names inert, in every locale', () => {
    const hostile = clans(30, (i) => (i % 2 === 0 ? HOSTILE : LONG_HOSTILE));
    const players = TurfTopPerformingPlayersSchema.parse({
      rows: Array.from({ length: 30 }, (_, i) => ({
        position: i + 1,
        player_id: i,
        player_name: i % 2 ? HOSTILE : LONG_HOSTILE,
        clan_name: HOSTILE,
        points: 1,
        kills: 1,
        deaths: 1,
        kd: 1,
      })),
    });
    const grossing = TurfTopGrossingClansSchema.parse({
      rows: [{ position: 1, clan_id: 1, clan_name: HOSTILE, kr: 5 }],
    });
    for (const t of Object.values(translators)) {
      expectSafe(renderTurfBoard(t, view({ board: 'clans', data: hostile })));
      expectSafe(renderTurfBoard(t, view({ board: 'players', data: players }, { mapId: 3 })));
      expectSafe(renderTurfBoard(t, view({ board: 'grossing', data: grossing })));
    }
    const line = descriptionLines(renderTurfBoard(en, view({ board: 'clans', data: hostile })))[2];
    expect(line).toContain('\\*\\*@\u200beveryone\\*\\*');
  });

  it('names a day or map a board does not take, instead of dropping it silently', () => {
    expect(ignoredOptions('clans', { day: true, map: true })).toEqual([]);
    expect(ignoredOptions('players', { day: true, map: true })).toEqual(['day']);
    expect(ignoredOptions('grossing', { day: true, map: true })).toEqual(['day', 'map']);
    expect(ignoredOptions('grossing', { day: false, map: false })).toEqual([]);
    const grossing = TurfTopGrossingClansSchema.parse({ rows: [] });
    const lines = descriptionLines(
      renderTurfBoard(de, view({ board: 'grossing', data: grossing }, { ignored: ['day', 'map'] })),
    );
    expect(lines.slice(0, 3)).toEqual([
      'Einnahmen dieser Saison, alle abgeschlossenen Tage',
      'Diese Rangliste umfasst die ganze Saison: der Tag gilt für sie nicht.',
      'Diese Rangliste umfasst alle Karten: die Karte gilt für sie nicht.',
    ]);
  });

  it('renders the sandbox boards of a day and a map by name', async () => {
    const api = live.client.api;
    const day = TODAY - 3;
    const data = await api.turfTopPerformingClans({ day, mapId: 2 });
    const payload = renderTurfBoard(en, view({ board: 'clans', data }, { day, mapId: 2 }));
    expectSafe(payload);
    expect(descriptionLines(payload)[0]).toBe('Day 252 (Nov 24) · Sandstorm');
    const top = data.rows[0]!;
    expect(descriptionLines(payload)[2]).toContain(`**${top.clan_name}** · ${en.n(top.points!)} pts`);
    const players = await api.turfTopPerformingPlayers({ mapId: 0 });
    expect(players.rows).toHaveLength(100);
    const board = renderTurfBoard(en, view({ board: 'players', data: players }, { mapId: 0 }));
    expectSafe(board);
    expect(descriptionLines(board)[0]).toBe('This season · Burg');
    expect(buttons(board)[1]?.label).toBe('Page 1 of 4');
    expectSafe(renderTurfBoard(en, view({ board: 'grossing', data: await api.turfTopGrossingClans({}) })));
  });
});

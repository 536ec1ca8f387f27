import { renderLobbies } from '../../support/with-ids.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { command } from '../../../commands/lobbies.ts';
import { LocalRefusalError } from '../../../src/api/errors.ts';
import { LobbyListSchema, type LobbyList } from '../../../src/api/schemas/index.ts';
import { localizeCommand } from '../../../src/discord/localize.ts';
import { LOCALES } from '../../../src/i18n/index.ts';
import {
  ENDING_SECONDS,
  LOBBIES_PER_PAGE,
  LOBBY_REGIONS,
  MODE_NAMES,
  isEnding,
  joinUrl,
  modeName,
  regionName,
  sortLobbies,
} from '../../../src/features/lobbies/render.ts';
import type { ReplyPayload } from '../../../src/render/payload.ts';
import { REGION_KEYS } from '../../../src/dev/sandbox/names.ts';
import {
  LONG_HOSTILE,
  buttons,
  descriptionLines,
  embedOf,
  expectSafe,
  translations,
  translators,
  useSandboxApi,
} from '../../support/render.ts';

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const HOSTNAME = 'game.example';

const { en, fr } = translators;
const live = useSandboxApi({ now: () => NOW }, 'none');
let list: LobbyList;

beforeAll(async () => {
  list = await live.client.api.lobbies({ hostname: HOSTNAME });
});

function lobbyLines(payload: ReplyPayload): string[] {
  return descriptionLines(payload).slice(2);
}

/** The games a list shows: those not about to end. */
function listed(games: LobbyList['games']): LobbyList['games'] {
  return games.filter((g) => !isEnding(g));
}

describe('lobby list', () => {
  it('needs the hostname: the client refuses a call without it', async () => {
    await expect(live.client.api.lobbies({ hostname: '' })).rejects.toBeInstanceOf(LocalRefusalError);
    expect(listed(list.games).length).toBeGreaterThan(LOBBIES_PER_PAGE);
    // The sandbox has games about to end: the lists below leave them out.
    expect(list.games.some(isEnding)).toBe(true);
  });

  it('renders every region: counts, the fullest lobbies first, and regions by players', () => {
    const payload = renderLobbies(en, { data: list, region: undefined, page: 1, now: NOW });
    expectSafe(payload);
    const embed = embedOf(payload);
    const players = list.games.reduce((sum, g) => sum + (g.players ?? 0), 0);
    expect(embed.title).toBe('Public lobbies');
    expect(embed.description?.split('\n')[0]).toBe(
      `Lobbies: **${list.games.length}** · players: **${players}**`,
    );
    const lines = lobbyLines(payload);
    expect(lines).toHaveLength(LOBBIES_PER_PAGE);
    const fullest = sortLobbies(listed(list.games))[0]!;
    expect(lines[0]).toBe(
      [
        `**${fullest.options?.map}** · ${modeName(en, fullest.options?.mode)} · 👥 ${fullest.players}/${fullest.maxPlayers} · ends <t:${NOW / 1000 + (fullest.secondsLeft ?? 0)}:R>`,
        regionName(en, fullest.regionKey),
        ...(fullest.options?.custom ? ['🛠️ custom'] : []),
        fullest.players === fullest.maxPlayers ? '🔒 full' : `https://krunker.io/?game=${fullest.gameId}`,
      ].join(' · '),
    );
    const ending = list.games.length - listed(list.games).length;
    expect(embed.footer?.text).toBe(
      `Fullest first (share of seats taken) · the game refreshes this list every minute · ${ending} about to end (under 1 min) not listed`,
    );
    for (const line of lines) expect(line).toMatch(/ · (https:\/\/krunker\.io\/\?game=[A-Z]+:\w+|🔒 full)$/);
    const shares = lines.map((line) => {
      const [, players, max] = /👥 (\d+)\/(\d+)/.exec(line) ?? [];
      return Number(players) / Number(max);
    });
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    const byRegion = embed.fields?.find((f) => f.name === 'By region')?.value.split('\n') ?? [];
    expect(byRegion).toHaveLength(new Set(list.games.map((g) => g.regionKey)).size);
    const regionPlayers = byRegion.map((line) => Number(/👥 (\d+)$/.exec(line)?.[1]));
    expect(regionPlayers).toEqual([...regionPlayers].sort((a, b) => b - a));
    const [previous, label, next] = buttons(payload);
    expect(previous?.disabled).toBe(true);
    expect(label?.label).toBe(`Page 1 of ${Math.ceil(listed(list.games).length / LOBBIES_PER_PAGE)}`);
    expect(next?.id).toMatchObject({ command: 'lobbies', action: 'page', args: ['', '2'] });
  });

  it('pages on to the last page and clamps pages past it', () => {
    const shown = listed(list.games).length;
    const pages = Math.ceil(shown / LOBBIES_PER_PAGE);
    const last = renderLobbies(en, { data: list, region: undefined, page: pages, now: NOW });
    expectSafe(last);
    expect(lobbyLines(last)).toHaveLength(shown - (pages - 1) * LOBBIES_PER_PAGE);
    expect(buttons(last)[2]?.disabled).toBe(true);
    const beyond = renderLobbies(en, { data: list, region: undefined, page: pages + 10, now: NOW });
    expect(embedOf(beyond).description).toBe(embedOf(last).description);
  });

  it.each(LOBBY_REGIONS)('filters to region %s', (region) => {
    const payload = renderLobbies(en, { data: list, region, page: 1, now: NOW });
    expectSafe(payload);
    const embed = embedOf(payload);
    const mine = list.games.filter((g) => g.regionKey === region);
    const mineListed = listed(mine);
    expect(embed.title).toBe(`Public lobbies · ${en.t(`lobbies:regions.${region}`)}`);
    expect(embed.description?.split('\n')[0]).toBe(
      `Lobbies: **${mine.length}** · players: **${mine.reduce((s, g) => s + (g.players ?? 0), 0)}**`,
    );
    expect(lobbyLines(payload)).toHaveLength(
      mineListed.length === 0 ? 1 : Math.min(LOBBIES_PER_PAGE, mineListed.length),
    );
    for (const line of lobbyLines(payload)) expect(line).not.toContain(en.t(`lobbies:regions.${region}`));
    expect(embed.fields).toEqual([]);
    if (mineListed.length <= LOBBIES_PER_PAGE) expect(payload.components).toEqual([]);
  });

  it('labels every region key the game serves, and names the modes it uses', () => {
    expect([...LOBBY_REGIONS].sort()).toEqual([...REGION_KEYS].sort());
    for (const lobby of list.games) {
      expect(MODE_NAMES[lobby.options?.mode ?? -1]).toBeDefined();
    }
    expect(modeName(en, 99)).toBe('Unknown mode 99');
    expect(modeName(fr, 99)).toBe('Mode inconnu 99');
    expect(modeName(en, undefined)).toBe('Unknown');
    expect(regionName(en, 'xx-new')).toBe('xx-new');
  });

  it('says so when nobody plays, overall and in a region', () => {
    const empty = LobbyListSchema.parse({ games: [] });
    const all = renderLobbies(en, { data: empty, region: undefined, page: 1, now: NOW });
    expectSafe(all);
    expect(lobbyLines(all)).toEqual(['No public lobbies right now.']);
    expect(all.components).toEqual([]);
    const some = renderLobbies(fr, { data: empty, region: 'sgp', page: 3, now: NOW });
    expectSafe(some);
    expect(lobbyLines(some)).toEqual([fr.t('lobbies:noneInRegion')]);
    expect(embedOf(some).title).toBe('Salons publics · Singapour');
  });

  it('survives hostile map names, unknown regions and missing fields', () => {
    const data = LobbyListSchema.parse({
      games: [
        ...Array.from({ length: 25 }, (_, i) => [
          `ID:${i}`,
          i % 2 === 0 ? 'de-fra' : LONG_HOSTILE,
          i,
          16,
          { i: LONG_HOSTILE, g: 1000 + i, c: 1 },
          30,
        ]),
        ['BARE:1', 'sgp'],
      ],
    });
    expect(data.games).toHaveLength(26);
    for (const t of [en, fr]) {
      const payload = renderLobbies(t, { data, region: undefined, page: 1, now: NOW });
      expectSafe(payload);
      const last = renderLobbies(t, { data, region: undefined, page: 3, now: NOW });
      expectSafe(last);
      expect(lobbyLines(last).at(-1)).toContain('BARE:1');
    }
    const bare = renderLobbies(en, { data, region: 'sgp', page: 1, now: NOW });
    expect(lobbyLines(bare)).toEqual(['**—** · Unknown · 👥 —/— · ends — · https://krunker.io/?game=BARE:1']);
  });
});

describe('join links and games about to end', () => {
  const game = (id: string, secondsLeft: number | undefined, players = 4) =>
    secondsLeft === undefined
      ? [id, 'de-fra', players, 8, { i: 'Burg', g: 0 }]
      : [id, 'de-fra', players, 8, { i: 'Burg', g: 0 }, secondsLeft];

  it('links each game to the game, and gives no link to an id that is not one', () => {
    expect(joinUrl('FRA:ab12c')).toBe('https://krunker.io/?game=FRA:ab12c');
    expect(joinUrl(' NY:x9 ')).toBe('https://krunker.io/?game=NY:x9');
    for (const bad of ['', 'a b', '[x](http://e.vil)', 'FRA:_a_', '@everyone', 'x'.repeat(41), 'ab/../c'])
      expect(joinUrl(bad)).toBeUndefined();
    const data = LobbyListSchema.parse({
      games: [game('FRA:ab12c', 200, 6), game('[x](http://e.vil)', 200, 5)],
    });
    const payload = renderLobbies(en, { data, region: 'de-fra', page: 1, now: NOW });
    expectSafe(payload);
    const lines = lobbyLines(payload);
    expect(lines[0]).toMatch(/ · https:\/\/krunker\.io\/\?game=FRA:ab12c$/);
    expect(lines[1]).not.toContain('https://');
    expect(lines[1]).toContain('\\[x\\]');
  });

  it(`hides games with under ${ENDING_SECONDS} s left, counts them, and keeps games whose time is not sent`, () => {
    const data = LobbyListSchema.parse({
      games: [
        game('FRA:end1', ENDING_SECONDS - 1, 8),
        game('FRA:end2', 0, 7),
        game('FRA:keep1', ENDING_SECONDS, 1),
        game('FRA:keep2', undefined, 2),
      ],
    });
    const payload = renderLobbies(en, { data, region: undefined, page: 1, now: NOW });
    expectSafe(payload);
    const lines = lobbyLines(payload);
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toContain('FRA:end');
    expect(lines[0]).toContain('FRA:keep2');
    expect(lines[1]).toContain(`ends <t:${NOW / 1000 + ENDING_SECONDS}:R>`);
    // The counts still include them: their players are playing.
    expect(descriptionLines(payload)[0]).toBe('Lobbies: **4** · players: **18**');
    expect(embedOf(payload).footer?.text).toContain('2 about to end (under 1 min) not listed');
    const ru = renderLobbies(translators.ru, { data, region: undefined, page: 1, now: NOW });
    expect(embedOf(ru).footer?.text).toContain(': 2');

    const allEnding = LobbyListSchema.parse({ games: [game('FRA:end1', 10)] });
    const none = renderLobbies(en, { data: allEnding, region: undefined, page: 1, now: NOW });
    expect(lobbyLines(none)).toEqual(['Every game here ends within a minute. Try again shortly.']);
    const quiet = renderLobbies(en, {
      data: LobbyListSchema.parse({ games: [] }),
      region: undefined,
      page: 1,
      now: NOW,
    });
    expect(embedOf(quiet).footer?.text).toBe(
      'Fullest first (share of seats taken) · the game refreshes this list every minute',
    );
  });

  it('orders by the share of seats taken, and gives a full lobby no join link', () => {
    const sized = (id: string, players: number, max: number) => [
      id,
      'de-fra',
      players,
      max,
      { i: 'Burg', g: 0 },
      300,
    ];
    const data = LobbyListSchema.parse({
      games: [
        sized('FRA:big', 9, 16),
        sized('FRA:most', 9, 10),
        sized('FRA:full', 8, 8),
        sized('FRA:half', 2, 4),
      ],
    });
    const payload = renderLobbies(en, { data, region: 'de-fra', page: 1, now: NOW });
    expectSafe(payload);
    const lines = lobbyLines(payload);
    expect(lines.map((line) => /👥 (\d+\/\d+)/.exec(line)?.[1])).toEqual(['8/8', '9/10', '9/16', '2/4']);
    expect(lines[0]).toMatch(/ · 🔒 full$/);
    expect(lines[0]).not.toContain('https://');
    expect(lines[1]).toMatch(/ · https:\/\/krunker\.io\/\?game=FRA:most$/);
  });
});

describe('lobbies command', () => {
  it('offers the game region keys as choices, named in every locale', () => {
    const json = localizeCommand(command.data, 'lobbies', translations);
    const option = json.options?.[0] as {
      name: string;
      required?: boolean;
      choices?: Array<{ value: string; name: string; name_localizations?: Record<string, string> }>;
    };
    expect(option.name).toBe('region');
    expect(option.required).toBeUndefined();
    expect(option.choices?.map((c) => c.value)).toEqual([...LOBBY_REGIONS]);
    for (const choice of option.choices ?? []) {
      expect(Object.keys(choice.name_localizations ?? {})).toHaveLength(LOCALES.length - 1);
    }
  });
});

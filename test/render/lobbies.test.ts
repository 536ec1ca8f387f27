import { renderLobbies } from './with-ids.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { command } from '../../commands/lobbies.ts';
import { LocalRefusalError } from '../../src/api/errors.ts';
import { LobbyListSchema, type LobbyList } from '../../src/api/schemas/index.ts';
import { localizeCommand } from '../../src/discord/localize.ts';
import { LOCALES } from '../../src/i18n/index.ts';
import {
  LOBBIES_PER_PAGE,
  LOBBY_REGIONS,
  MODE_NAMES,
  modeName,
  regionName,
  sortLobbies,
} from '../../src/render/lobbies.ts';
import type { ReplyPayload } from '../../src/render/payload.ts';
import { REGION_KEYS } from '../../src/dev/sandbox/names.ts';
import {
  LONG_HOSTILE,
  buttons,
  descriptionLines,
  embedOf,
  expectSafe,
  translations,
  translators,
  useSandboxApi,
} from '../support/render.ts';

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

describe('lobby list', () => {
  it('needs the hostname: the client refuses a call without it', async () => {
    await expect(live.client.api.lobbies({ hostname: '' })).rejects.toBeInstanceOf(LocalRefusalError);
    expect(list.games.length).toBeGreaterThan(LOBBIES_PER_PAGE);
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
    const fullest = sortLobbies(list.games)[0]!;
    expect(lines[0]).toBe(
      [
        `**${fullest.options?.map}** · ${modeName(en, fullest.options?.mode)} · 👥 ${fullest.players}/${fullest.maxPlayers} · ends <t:${NOW / 1000 + (fullest.secondsLeft ?? 0)}:R>`,
        regionName(en, fullest.regionKey),
        ...(fullest.options?.custom ? ['🛠️ custom'] : []),
        fullest.gameId,
      ].join(' · '),
    );
    const counts = lines.map((line) => Number(/👥 (\d+)\//.exec(line)?.[1]));
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const byRegion = embed.fields?.find((f) => f.name === 'By region')?.value.split('\n') ?? [];
    expect(byRegion).toHaveLength(new Set(list.games.map((g) => g.regionKey)).size);
    const regionPlayers = byRegion.map((line) => Number(/👥 (\d+)$/.exec(line)?.[1]));
    expect(regionPlayers).toEqual([...regionPlayers].sort((a, b) => b - a));
    const [previous, label, next] = buttons(payload);
    expect(previous?.disabled).toBe(true);
    expect(label?.label).toBe(`Page 1 of ${Math.ceil(list.games.length / LOBBIES_PER_PAGE)}`);
    expect(next?.id).toMatchObject({ command: 'lobbies', action: 'page', args: ['', '2'] });
  });

  it('pages on to the last page and clamps pages past it', () => {
    const pages = Math.ceil(list.games.length / LOBBIES_PER_PAGE);
    const last = renderLobbies(en, { data: list, region: undefined, page: pages, now: NOW });
    expectSafe(last);
    expect(lobbyLines(last)).toHaveLength(list.games.length - (pages - 1) * LOBBIES_PER_PAGE);
    expect(buttons(last)[2]?.disabled).toBe(true);
    const beyond = renderLobbies(en, { data: list, region: undefined, page: pages + 10, now: NOW });
    expect(embedOf(beyond).description).toBe(embedOf(last).description);
  });

  it.each(LOBBY_REGIONS)('filters to region %s', (region) => {
    const payload = renderLobbies(en, { data: list, region, page: 1, now: NOW });
    expectSafe(payload);
    const embed = embedOf(payload);
    const mine = list.games.filter((g) => g.regionKey === region);
    expect(embed.title).toBe(`Public lobbies · ${en.t(`lobbies:regions.${region}`)}`);
    expect(embed.description?.split('\n')[0]).toBe(
      `Lobbies: **${mine.length}** · players: **${mine.reduce((s, g) => s + (g.players ?? 0), 0)}**`,
    );
    expect(lobbyLines(payload)).toHaveLength(mine.length === 0 ? 1 : Math.min(LOBBIES_PER_PAGE, mine.length));
    for (const line of lobbyLines(payload)) expect(line).not.toContain(en.t(`lobbies:regions.${region}`));
    expect(embed.fields).toEqual([]);
    if (mine.length <= LOBBIES_PER_PAGE) expect(payload.components).toEqual([]);
  });

  it('labels every region key the game serves, and names the modes it uses', () => {
    expect([...LOBBY_REGIONS].sort()).toEqual([...REGION_KEYS].sort());
    for (const lobby of list.games) {
      expect(MODE_NAMES[lobby.options?.mode ?? -1]).toBeDefined();
    }
    expect(modeName(en, 99)).toBe('Mode 99');
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
    expect(lobbyLines(bare)).toEqual(['**—** · Unknown · 👥 —/— · ends — · BARE:1']);
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

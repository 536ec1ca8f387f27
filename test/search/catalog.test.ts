import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { command as clanCommand } from '../../commands/clan.ts';
import { command as mapCommand } from '../../commands/map.ts';
import { command as modsCommand } from '../../commands/mods.ts';
import { CATALOG_PER_KIND } from '../../src/names/index.ts';
import { NAME_CATALOG_SCOPE, NameCatalog, readsPerRefresh } from '../../src/search/catalog.ts';
import { NAME_CATALOG_READS } from '../../src/traffic/capacity.ts';
import { RequestBudget } from '../../src/traffic/budget.ts';
import type { AutocompleteOptions, MessageRecord } from '../../src/dev/standin/index.ts';
import {
  busiestWindow,
  commandOptions,
  drive,
  routeCommands,
  silentLog,
  useWorldPerTest,
  type Process,
} from '../support/announcements.ts';

/**
 * The names the game publishes (map and mod browsers, clan leaderboard, recruitment board), read in the
 * background within a budget of their own in the shared limits, give "did you mean" and autocomplete for
 * maps, mods and clans the bot has never seen.
 */
routeCommands(clanCommand, mapCommand, modsCommand);

const fixture = useWorldPerTest();
const USER = { id: '300000000000000002', username: 'user002' };
const BROWSERS = /^\/webhooks\/general\/(maps|mods)\/list$/;
const CLAN_LISTS = /^\/(leaderboards\/player_clan|clans\/recruitment)$/;

function catalogOf(proc: Process, pages = 2): NameCatalog {
  const { world } = fixture;
  return new NameCatalog({
    api: proc.api,
    names: proc.services.names,
    limits: world.limits,
    clock: world.clock,
    log: silentLog,
    pages,
  });
}

function listRequests() {
  return fixture.world.sandbox.requests
    .entries()
    .filter((entry) => BROWSERS.test(entry.path) || CLAN_LISTS.test(entry.path));
}

function buttons(message: MessageRecord) {
  const rows = message.components as unknown as Array<{ components?: unknown[] }>;
  return rows.flatMap((row) => row.components ?? []) as Array<{ custom_id: string; label: string }>;
}

function run(command: string, sub: string, name: string) {
  const { world } = fixture;
  return world.discord
    .invokeCommand({
      name: command,
      guildId: world.guildId,
      user: USER,
      options: commandOptions(command, sub, { name }),
    })
    .final();
}

describe('the published names', () => {
  it('are read in the background from the browsers and the clan boards, one ticket of their own budget a read', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    const catalog = catalogOf(proc);
    const refreshed = await drive(world.clock, catalog.refresh());
    const requests = listRequests();
    expect(requests.length).toBe(refreshed.requests);
    // Bounded: at most the pages asked of each list.
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.length).toBeLessThanOrEqual(readsPerRefresh(2));
    // Within its share: one read a minute (its budget keeps the second slot for a retry), counted in the
    // shared limits under its own scope.
    expect(NAME_CATALOG_READS).toEqual({ limit: 2, windowMs: 60_000 });
    expect(
      busiestWindow(
        requests.map((entry) => entry.at),
        60_000,
      ),
    ).toBe(1);
    expect((await catalog.budget.recent()).length).toBeGreaterThan(0);
    const { names } = proc.services;
    expect(refreshed.counts.map).toBe(names.catalogSize('map'));
    expect(names.catalogSize('map')).toBeGreaterThan(0);
    expect(names.catalogSize('mod')).toBeGreaterThan(0);
    expect([...names.list('clan')]).toContain('Vortex');
    for (const kind of ['map', 'mod', 'clan'] as const)
      expect(names.catalogSize(kind)).toBeLessThanOrEqual(CATALOG_PER_KIND);
  });

  it('waits for its budget when another process has spent it', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    // Another process's reads of the same budget, in the same shared limits: this one's first read waits.
    const other = new RequestBudget(world.limits, NAME_CATALOG_SCOPE, NAME_CATALOG_READS, world.clock);
    const started = world.clock.now();
    await (await other.take()).settle(0);
    await drive(world.clock, catalogOf(proc, 1).refresh());
    const first = Math.min(...listRequests().map((entry) => entry.at));
    expect(first - started).toBeGreaterThanOrEqual(60_000);
  });

  it('a refresh replaces the list of a kind, never growing it', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    const catalog = catalogOf(proc, 1);
    await drive(world.clock, catalog.refresh());
    const once = proc.services.names.catalogSize('map');
    expect(once).toBeGreaterThan(0);
    await drive(world.clock, catalog.refresh());
    expect(proc.services.names.catalogSize('map')).toBe(once);
    // One page of each of the three tabs, at most 20 maps a page (the sandbox's page).
    expect(once).toBeLessThanOrEqual(3 * 20);
  });
});

describe('the background refresh', () => {
  it('starts a minute after start-up, reads again after its interval, and stops when told', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    const catalog = new NameCatalog({
      api: proc.api,
      names: proc.services.names,
      limits: world.limits,
      clock: world.clock,
      log: silentLog,
      pages: 1,
      refreshMs: 60 * 60_000,
    });
    const controller = new AbortController();
    const running = catalog.run(controller.signal);
    await world.clock.runFor(59_000);
    expect(listRequests()).toHaveLength(0);
    // Clans come first, each kind kept as soon as its lists are read: before the browsers are done.
    await world.clock.runFor(3 * 60_000);
    expect([...proc.services.names.list('clan')]).toContain('Vortex');
    expect(proc.services.names.catalogSize('mod')).toBe(0);
    // One refresh of one page a list: at most 10 reads at one a minute.
    await world.clock.runFor(15 * 60_000);
    const first = listRequests().length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(readsPerRefresh(1));
    expect(proc.services.names.catalogSize('map')).toBeGreaterThan(0);
    await world.clock.runFor(60 * 60_000);
    expect(listRequests().length).toBeGreaterThan(first);
    controller.abort();
    await running;
    const stopped = listRequests().length;
    await world.clock.runFor(2 * 60 * 60_000);
    expect(listRequests()).toHaveLength(stopped);
  });
});

describe('did you mean and autocomplete from the published names', () => {
  it('offers "Parkour Paradise" for "Parkour Paradis" on a bot that never saw it; the button opens a public reply', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    await drive(world.clock, catalogOf(proc).refresh());
    const reply = await run('map', 'info', 'Parkour Paradis');
    expect(reply.embeds[0]?.description).toContain('No map named `Parkour Paradis`');
    const button = buttons(reply).find((b) => b.label === 'Parkour Paradise');
    expect(button?.custom_id).toMatch(/^map:find:info:/);
    const shown = await world.discord.clickButton(reply, button!.custom_id).final();
    expect(shown.id).not.toBe(reply.id);
    expect(shown.flags & 64).toBe(0);
    expect(JSON.stringify(shown.embeds)).toContain('Parkour Paradise');
    expect(shown.embeds[0]?.title ?? '').not.toMatch(/Not found/);
  });

  it('offers the mod for a typo of its name', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    await drive(world.clock, catalogOf(proc).refresh());
    const mod = [...proc.services.names.list('mod')].find((name) => /^[A-Za-z ]{6,}$/.test(name));
    if (!mod) throw new Error('no plain mod name among the published ones');
    const typo = mod.slice(0, -1);
    const reply = await run('mods', 'info', typo);
    expect(reply.embeds[0]?.description).toContain(`No mod named \`${typo}\``);
    const button = buttons(reply).find((b) => b.label === mod);
    expect(button?.custom_id).toMatch(/^mods:find:/);
    const shown = await world.discord.clickButton(reply, button!.custom_id).final();
    expect(shown.flags & 64).toBe(0);
    expect(JSON.stringify(shown.embeds)).toContain(mod);
  });

  it('completes "Vor" to the clan Vortex on a bot that never saw it', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    await drive(world.clock, catalogOf(proc).refresh());
    const pending = world.discord.autocomplete({
      name: 'clan',
      guildId: world.guildId,
      user: USER,
      options: [
        {
          type: ApplicationCommandOptionType.Subcommand,
          name: 'profile',
          options: [{ type: ApplicationCommandOptionType.String, name: 'name', value: 'Vor', focused: true }],
        },
      ] as AutocompleteOptions['options'],
    });
    const response = await drive(world.clock, pending.response());
    const choices = (response.data as { choices: Array<{ value: string }> }).choices.map((c) => c.value);
    expect(choices).toContain('Vortex');
  });

  it('completes a map typed with a typo', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    await drive(world.clock, catalogOf(proc).refresh());
    const pending = world.discord.autocomplete({
      name: 'map',
      guildId: world.guildId,
      user: USER,
      options: [
        {
          type: ApplicationCommandOptionType.Subcommand,
          name: 'info',
          options: [
            {
              type: ApplicationCommandOptionType.String,
              name: 'name',
              value: 'Parkour Paradis',
              focused: true,
            },
          ],
        },
      ] as AutocompleteOptions['options'],
    });
    const response = await pending.response();
    const choices = (response.data as { choices: Array<{ value: string }> }).choices.map((c) => c.value);
    expect(choices[0]).toBe('Parkour Paradise');
  });
});

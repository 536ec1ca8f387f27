import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { command as clanCommand } from '../../commands/clan.ts';
import { command as playerCommand } from '../../commands/player.ts';
import { command as turfCommand } from '../../commands/turf.ts';
import { nameSearchOf } from '../../src/search/index.ts';
import { commandOptions, routeCommands, useWorldPerTest } from '../support/announcements.ts';
import type { AutocompleteOptions, MessageRecord } from '../../src/dev/standin/index.ts';

/**
 * Search that forgives, through the Discord stand-in and the sandbox: autocomplete asks the search
 * endpoint (debounced on the test's manual clock, answered within the bound when it is slow), and a name
 * the API does not know gets a reply naming it with "did you mean" buttons that run the command.
 */
routeCommands(playerCommand, clanCommand, turfCommand);

const fixture = useWorldPerTest();
const USER = { id: '300000000000000001', username: 'user001' };

function focused(sub: string, typed: string): AutocompleteOptions['options'] {
  return [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: sub,
      options: [{ type: ApplicationCommandOptionType.String, name: 'name', value: typed, focused: true }],
    },
  ] as AutocompleteOptions['options'];
}

/**
 * Starts an autocomplete and returns the choices' values. With `advanceMs`, waits until the search sleeps
 * on the manual clock (its debounce) and moves the clock that far; without, the clock stays still.
 */
async function autocomplete(command: string, sub: string, typed: string, advanceMs?: number) {
  const { world } = fixture;
  const before = world.clock.sleepers;
  const pending = world.discord.autocomplete({
    name: command,
    guildId: world.guildId,
    user: USER,
    options: focused(sub, typed),
  });
  if (advanceMs !== undefined) {
    await world.clock.whenSleeping(before + 1);
    await world.clock.advance(advanceMs);
  }
  const response = await pending.response();
  expect(response.type).toBe(8);
  return (response.data as { choices: Array<{ value: string }> }).choices.map((c) => c.value);
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

function buttons(message: MessageRecord) {
  const rows = message.components as unknown as Array<{ components?: unknown[] }>;
  return rows.flatMap((row) => row.components ?? []) as Array<{ custom_id: string; label: string }>;
}

/** A player whose first three letters few others share (so the search for them lists it), and a typo of it. */
function rarePlayer() {
  const players = fixture.world.sandbox.world.players.filter((p) => /^[A-Za-z]{6,}/.test(p.name));
  const share = (prefix: string) =>
    fixture.world.sandbox.world.players.filter((p) => p.name.toLowerCase().includes(prefix)).length;
  const player = players.find((p) => share(p.name.slice(0, 3).toLowerCase()) <= 10);
  if (!player) throw new Error('no player with a rare prefix in the sandbox');
  const name = player.name;
  const typo = name.slice(0, -2) + (name.at(-1) ?? '') + (name.at(-2) ?? '') + 'q';
  return { name, typo };
}

describe('autocomplete with the search endpoint', () => {
  it('suggests players the bot never saw, from /players/search, after the debounce', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    const { name } = rarePlayer();
    const typed = name.slice(0, 4);
    const choices = await autocomplete('player', 'profile', typed, 300);
    expect(choices).toContain(name);
    expect(world.sandbox.requests.count('/players/search')).toBe(1);
    // The same query again comes from the cache at once (the clock stays still): no second request.
    expect(await autocomplete('player', 'profile', typed)).toContain(name);
    expect(world.sandbox.requests.count('/players/search')).toBe(1);
    expect(nameSearchOf(proc.services).stats.cacheHits).toBeGreaterThan(0);
  });

  it('answers from the names seen within the bound when the endpoint is slow; its late answer serves the next keystroke', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    const { name } = rarePlayer();
    proc.services.names.remember('player', `${name.slice(0, 4)}SeenBefore`);
    world.sandbox.faults.inject({ match: '/players/search', kind: 'delay', ms: 400, times: 1 });
    const first = await autocomplete('player', 'profile', name.slice(0, 4), 800);
    expect(first).toEqual([`${name.slice(0, 4)}SeenBefore`]);
    expect(nameSearchOf(proc.services).stats.answeredFromKnown).toBe(1);
    await nameSearchOf(proc.services).settled();
    expect(nameSearchOf(proc.services).cacheSize).toBe(1);
    const before = world.sandbox.requests.count('/players/search');
    // No clock advance: a keystroke covered by the cache answers at once, without waiting for anything.
    expect(await autocomplete('player', 'profile', name.slice(0, 5))).toContain(name);
    expect(world.sandbox.requests.count('/players/search')).toBe(before);
  });

  it('probes clans by exact name (the only clan lookup the spec documents)', async () => {
    await fixture.start({ commands: true });
    const clan = fixture.world.sandbox.world.samples.clan;
    expect(await autocomplete('clan', 'profile', clan, 300)).toContain(clan);
    expect(fixture.world.sandbox.requests.count(`/clans/by-name/${encodeURIComponent(clan)}`)).toBe(1);
  });
});

describe('did you mean', () => {
  it('names the player searched and offers close names as buttons; a click runs the subcommand for that name', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const { name, typo } = rarePlayer();
    const reply = await run('player', 'profile', typo);
    const description = reply.embeds[0]?.description ?? '';
    expect(description).toContain(`No player named \`${typo}\``);
    const offered = buttons(reply);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.length).toBeLessThanOrEqual(3);
    const button = offered.find((b) => b.label === name);
    expect(button, `${name} among ${offered.map((b) => b.label).join(', ')}`).toBeDefined();
    const shown = await world.discord.clickButton(reply, button!.custom_id).final();
    expect(shown.embeds[0]?.title).toContain(name);
    expect(shown.embeds[0]?.description ?? '').not.toContain('No player named');
  });

  it('keeps the subcommand: each button runs the subcommand it came from, with its defaults', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    const name = world.sandbox.world.samples.player;
    proc.services.names.remember('player', name);
    for (const sub of ['posts', 'matches', 'inventory', 'listings', 'history']) {
      const reply = await run('player', sub, `${name}zz`);
      const button = buttons(reply).find((b) => b.label === name);
      expect(button?.custom_id, sub).toMatch(new RegExp(`^player:find:${sub}:`));
      const shown = await world.discord.clickButton(reply, button!.custom_id).final();
      expect(shown.embeds[0]?.title ?? '', sub).not.toMatch(/Not found|did not work|went wrong/);
      expect(JSON.stringify(shown.embeds), sub).toContain(name);
    }
  });

  it('does the same for clans, from the clans seen', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    const clan = world.sandbox.world.clans.find((c) => /^[A-Za-z]{5,}$/.test(c.name));
    if (!clan) throw new Error('no plain clan name in the sandbox');
    proc.services.names.remember('clan', clan.name);
    const typo = clan.name.slice(0, -1);
    const reply = await run('clan', 'members', typo);
    expect(reply.embeds[0]?.description).toContain(`No clan named \`${typo}\``);
    const button = buttons(reply).find((b) => b.label === clan.name);
    expect(button?.custom_id).toMatch(/^clan:find:members:/);
    const shown = await world.discord.clickButton(reply, button!.custom_id).final();
    expect(JSON.stringify(shown.embeds)).toContain(clan.name);
    expect(shown.embeds[0]?.description ?? '').not.toContain('No clan named');
  });

  it('finds a player whose name differs only in case, through the search, on a bot that never saw it', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    const name = world.sandbox.world.samples.player;
    const reply = await run('player', 'profile', name.toLowerCase());
    expect(reply.embeds[0]?.title ?? '').toContain(name);
    expect(reply.embeds[0]?.description ?? '').not.toContain('No player named');
    // The name as typed first, then the same name as the search spells it.
    const asked = world.sandbox.requests.entries().map((entry) => decodeURIComponent(entry.path));
    expect(asked.filter((path) => path.endsWith(`/player/${name.toLowerCase()}`))).toHaveLength(1);
    expect(asked.filter((path) => path.endsWith(`/player/${name}`))).toHaveLength(1);
    // The right spelling is what the bot remembers.
    expect([...proc.services.names.list('player')]).toContain(name);
    expect([...proc.services.names.list('player')]).not.toContain(name.toLowerCase());
  });

  it('finds the player of /turf player in another case too', async () => {
    await fixture.start({ commands: true });
    const name = fixture.world.sandbox.world.samples.player;
    const reply = await run('turf', 'player', name.toLowerCase());
    expect(JSON.stringify(reply.embeds)).not.toContain('No player named');
    expect(JSON.stringify(reply.embeds)).toContain(name);
  });

  it('finds it from the names seen without a search, and pages on under the right spelling', async () => {
    const proc = await fixture.start({ commands: true });
    const { world } = fixture;
    const name = world.sandbox.world.samples.player;
    proc.services.names.remember('player', name);
    const reply = await run('player', 'matches', name.toUpperCase());
    expect(reply.embeds[0]?.title ?? '').not.toMatch(/Not found/);
    expect(JSON.stringify(reply.embeds)).toContain(name);
    expect(world.sandbox.requests.count('/players/search')).toBe(0);
    const pages = buttons(reply).filter((b) => b.custom_id.startsWith('player:matches:'));
    for (const page of pages) expect(page.custom_id).toContain(`:${encodeURIComponent(name)}:`);
  });

  it('offers [KillfeedTester] for KillfeedTeste; the click opens a public reply the clicker can share', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const name = world.sandbox.world.samples.player;
    const typo = name.slice(0, -1);
    const reply = await run('player', 'profile', typo);
    expect(reply.flags & 64).toBe(64);
    const button = buttons(reply).find((b) => b.label === name);
    expect(
      button,
      buttons(reply)
        .map((b) => b.label)
        .join(', '),
    ).toBeDefined();
    const shown = await world.discord.clickButton(reply, button!.custom_id).final();
    expect(shown.id).not.toBe(reply.id);
    expect(shown.flags & 64).toBe(0);
    expect(shown.embeds[0]?.title ?? '').toContain(name);
    // The private "not found" stays as it was.
    const original = world.discord.messages(reply.channelId).find((message) => message.id === reply.id);
    expect(original?.embeds[0]?.description ?? '').toContain('No player named');
  });

  it('says plainly when nothing is close, without buttons', async () => {
    await fixture.start({ commands: true });
    const reply = await run('player', 'profile', 'Qxzqxzqxzqxz');
    expect(reply.embeds[0]?.description).toBe(
      'No player named `Qxzqxzqxzqxz`.\nCheck the spelling and try again.',
    );
    expect(buttons(reply)).toEqual([]);
  });
});

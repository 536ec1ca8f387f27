import { describe, expect, it, vi } from 'vitest';
import type { CompletionContext } from '../../src/discord/command.ts';
import { COMPLETION_KINDS } from '../../src/discord/spec.ts';
import { NameIndex } from '../../src/names/index.ts';
import { checkAutocompleteChoices } from '../../src/render/text.ts';
import { NAME_COMPLETERS, skinChoices } from '../../src/search/completers.ts';
import { nameSearchOf } from '../../src/search/index.ts';
import type { Services } from '../../src/services.ts';
import { ManualClock } from '../support/clock.ts';
import { translators } from '../support/render.ts';

/**
 * The completers of the kinds of name (what the router asks for an option declared `autocomplete: 'player'`
 * and so on): players and clans through the name search, spending the asking user's and server's share;
 * maps and mods from the names seen; skins from the skin list, valued by index.
 */
const { en } = translators;

function context(typed: string, guildId: string | null = 'g1') {
  const names = new NameIndex();
  names.remember('player', 'Sniper', 'Camper');
  names.remember('clan', 'Red Army');
  names.seed('map', ['Dust', 'Docks']);
  names.seed('mod', ['Zombies', 'Gun Game']);
  names.seedSkins([{ index: 7, name: 'Dusk' }]);
  const services = {
    api: { call: vi.fn(() => Promise.resolve({ players: [] })) },
    names,
    clock: new ManualClock(),
    log: { warn: () => undefined },
  } as unknown as Services;
  const ctx = {
    interaction: { user: { id: 'u1' }, guildId },
    services,
    t: en,
    now: 0,
    typed,
  } as unknown as CompletionContext;
  return { ctx, services };
}

describe('the completers of the kinds of name', () => {
  it('has one for every kind an option may declare', () => {
    expect(Object.keys(NAME_COMPLETERS).sort()).toEqual([...COMPLETION_KINDS].sort());
  });

  it('searches players and clans with the asking user and server, whose shares the search spends', async () => {
    // One character: answered from the names seen, without waiting for the debounce.
    const { ctx, services } = context('S');
    const suggest = vi.spyOn(nameSearchOf(services), 'suggest');
    expect(await NAME_COMPLETERS.player(ctx)).toEqual([{ name: 'Sniper', value: 'Sniper' }]);
    expect(suggest).toHaveBeenLastCalledWith('player', 'S', { user: 'u1', guild: 'g1' });
    const inDm = context('R', null);
    const dmSuggest = vi.spyOn(nameSearchOf(inDm.services), 'suggest');
    await NAME_COMPLETERS.clan(inDm.ctx);
    expect(dmSuggest).toHaveBeenLastCalledWith('clan', 'R', { user: 'u1', guild: null });
  });

  it('suggests maps and mods from the names seen, and skins by name valued by index', async () => {
    expect(await NAME_COMPLETERS.map(context('do').ctx)).toEqual([{ name: 'Docks', value: 'Docks' }]);
    expect(await NAME_COMPLETERS.mod(context('gun').ctx)).toEqual([{ name: 'Gun Game', value: 'Gun Game' }]);
    expect(await NAME_COMPLETERS.skin(context('dus').ctx)).toEqual([{ name: 'Dusk (#7)', value: 7 }]);
  });

  it('offers skin names with their index as the value, and a typed index the list does not know', () => {
    const names = new NameIndex();
    names.seedSkins([
      { index: 3, name: 'Redline' },
      { index: 31, name: 'Red Dragon' },
      { index: 120, name: 'Blue Ice' },
    ]);
    expect(skinChoices(en, names, 'red')).toEqual([
      { name: 'Redline (#3)', value: 3 },
      { name: 'Red Dragon (#31)', value: 31 },
    ]);
    expect(skinChoices(en, names, '3').map((c) => c.value)).toEqual([3, 31]);
    expect(skinChoices(en, names, 31)).toEqual([{ name: 'Red Dragon (#31)', value: 31 }]);
    expect(skinChoices(en, names, '999')).toEqual([{ name: 'Unknown skin 999', value: 999 }]);
    expect(skinChoices(en, new NameIndex(), '')).toEqual([]);

    const many = new NameIndex();
    many.seedSkins(
      Array.from({ length: 60 }, (_, i) => ({ index: i, name: `Skin ${'x'.repeat(200)} ${i}` })),
    );
    const choices = skinChoices(en, many, 'skin');
    expect(choices).toHaveLength(25);
    expect(checkAutocompleteChoices(choices)).toEqual([]);
  });
});

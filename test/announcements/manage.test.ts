import { describe, expect, it } from 'vitest';
import type { Subscription } from '../../src/announcements/model.ts';
import { subscriptionChoices } from '../../src/announcements/manage.ts';
import { checkAutocompleteChoices } from '../../src/render/text.ts';
import { translators } from '../support/render.ts';

/**
 * What the commands that manage announcements share: here the autocomplete of a subscription id
 * (`/unsubscribe id`), the server's subscriptions named by id, kind and channel, filtered by what was typed.
 */
const { en } = translators;

function subscription(id: string, kind: string, channelId: string): Subscription {
  return {
    id,
    guildId: 'g1',
    channelId,
    kind,
    options: {},
    locale: 'en-US',
    createdBy: 'u1',
    createdAt: 0,
    since: 0,
    state: { status: 'active' },
  };
}

const guild = { channels: { cache: new Map([['c1', { name: 'news' }]]) } };
const interaction = { guild } as never;

describe('subscriptionChoices', () => {
  it('names each subscription by id, kind and channel, and keeps those matching what was typed', () => {
    const subscriptions = [subscription('ab12', 'maps', 'c1'), subscription('cd34', 'turf', 'c9')];
    const all = subscriptionChoices(en, interaction, subscriptions, '');
    expect(all.map((choice) => choice.value)).toEqual(['ab12', 'cd34']);
    expect(all[0]?.name).toMatch(/^ab12 · .+ · #news$/);
    expect(all[1]?.name).toMatch(/^cd34 · .+ · c9$/);
    expect(subscriptionChoices(en, interaction, subscriptions, ' NEWS ').map((c) => c.value)).toEqual([
      'ab12',
    ]);
    expect(subscriptionChoices(en, { guild: null }, subscriptions, 'c9')).toHaveLength(1);
  });

  it('offers at most 25, within Discord’s limits', () => {
    const many = Array.from({ length: 40 }, (_, i) => subscription(`id${i}`, 'maps', 'c1'));
    const choices = subscriptionChoices(en, interaction, many, '');
    expect(choices).toHaveLength(25);
    expect(checkAutocompleteChoices(choices)).toEqual([]);
  });
});

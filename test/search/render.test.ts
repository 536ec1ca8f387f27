import { describe, expect, it } from 'vitest';
import { Translations, type Locale } from '../../src/i18n/index.ts';
import { renderError } from '../../src/render/errors.ts';
import { inlineCode, NameNotFoundError } from '../../src/render/suggest.ts';
import { checkMessageLimits } from '../../src/render/text.ts';

const translations = new Translations();
const en = translations.for('en-US');

const HOSTILE = [
  'NoSuchPlayr',
  'a`b``c',
  '@everyone',
  '<@123456789012345678>',
  '[click](https://evil.example)',
  '**bold** ~~x~~ ||spoiler||',
  'line\nbreak\r\n# heading',
  '\uD800lone',
  '{{name}} $t(common:footer)',
  '名前😀Ωмир',
  'x'.repeat(500),
  '   ',
];

function buttonsOf(payload: ReturnType<typeof renderError>) {
  return (payload.components ?? []).flatMap((row) => row.components) as Array<{
    custom_id?: string;
    label?: string;
  }>;
}

describe('the not-found reply', () => {
  it('names what was searched as inline code it cannot leave, in every locale', () => {
    for (const searched of HOSTILE) {
      for (const locale of ['en-US', 'de', 'ru', 'tr'] satisfies Locale[]) {
        const t = translations.for(locale);
        const payload = renderError(new NameNotFoundError('common:notFound.player', searched), t, 'id');
        const description = payload.embeds?.[0]?.description ?? '';
        expect(payload.ephemeral).toBe(true);
        expect(checkMessageLimits(payload), searched).toEqual([]);
        const code = inlineCode(searched);
        expect(description, searched).toContain(code);
        // Exactly two backticks: the name cannot close the code span early or open another.
        expect(code.split('`')).toHaveLength(3);
        expect(code).not.toMatch(/[\n\r]/);
        // Shown literally, never read as a template: no nested translation comes out of it.
        expect(description).not.toContain(t.t('common:footer'));
      }
    }
    expect(inlineCode('NoSuchPlayr')).toBe('`NoSuchPlayr`');
    expect(
      renderError(new NameNotFoundError('common:notFound.player', 'NoSuchPlayr'), en, 'id').embeds?.[0]
        ?.description,
    ).toBe('No player named `NoSuchPlayr`.\nCheck the spelling and try again.');
  });

  it('offers at most three "did you mean" buttons, labelled with the names, skipping ids that did not fit', () => {
    const choices = [
      { name: 'Sniper', customId: 'player:find:profile:Sniper~x' },
      { name: 'x'.repeat(200), customId: 'player:find:profile:long~x' },
      { name: 'TooLong', customId: undefined },
      { name: 'Camper', customId: 'player:find:profile:Camper~x' },
      { name: 'Fourth', customId: 'player:find:profile:Fourth~x' },
    ];
    const payload = renderError(new NameNotFoundError('common:notFound.clan', 'Snipr', choices), en, 'id');
    const buttons = buttonsOf(payload);
    expect(buttons.map((b) => b.custom_id)).toEqual([
      'player:find:profile:Sniper~x',
      'player:find:profile:long~x',
      'player:find:profile:Camper~x',
    ]);
    expect(buttons[0]?.label).toBe('Sniper');
    expect(checkMessageLimits(payload)).toEqual([]);
    expect(payload.embeds?.[0]?.description).toBe('No clan named `Snipr`.\nDid you mean one of these?');
  });

  it('has no buttons when nothing is close', () => {
    const payload = renderError(new NameNotFoundError('common:notFound.clan', 'Zzz'), en, 'id');
    expect(payload.components).toBeUndefined();
  });
});

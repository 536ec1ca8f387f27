import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  EmbedBuilder,
  StringSelectMenuBuilder,
  type APIEmbed,
} from 'discord.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DiscordLimits,
  checkAutocompleteChoices,
  checkMessageLimits,
  codePointLength,
  embedLength,
  escapeMarkdown,
  safeText,
  truncate,
} from '../../src/render/text.ts';

const ZWSP = '\u200B';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Strings rich in everything escapeMarkdown has to handle. */
const markdownish = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '*',
      '_',
      '~',
      '|',
      '`',
      '\\',
      '[',
      ']',
      '(',
      ')',
      '>',
      '#',
      '-',
      '+',
      '1.',
      ' ',
      '\n',
      '@everyone',
      '@here',
      '@',
      '<',
      '<@123>',
      '<@!123>',
      '<@&123>',
      '<#123>',
      '</cmd:123>',
      'https://example.com/a_b',
      '👨‍👩‍👧‍👦',
      'é',
    ),
    fc.string({ unit: 'grapheme', maxLength: 3 }),
  ),
  maxLength: 60,
});

function trailingBackslashes(text: string): number {
  let count = 0;
  while (count < text.length && text[text.length - 1 - count] === '\\') count += 1;
  return count;
}

function hasLiveMention(text: string): boolean {
  return /@(everyone|here)/i.test(text) || /<[@#/]/.test(text);
}

/** Markup characters outside URLs that are not preceded by an odd run of backslashes. */
function liveInlineMarkup(text: string): string[] {
  const withoutUrls = text.replace(/https?:\/\/[^\s<>\\|`"]+/g, (url) => 'u'.repeat(url.length));
  const live: string[] = [];
  for (let i = 0; i < withoutUrls.length; i++) {
    const char = withoutUrls[i] ?? '';
    if (!'*_~|`['.includes(char)) continue;
    if (trailingBackslashes(withoutUrls.slice(0, i)) % 2 === 0) live.push(`${char}@${i}`);
  }
  return live;
}

describe('escapeMarkdown', () => {
  it.each([
    ['bold', '**bold**', '\\*\\*bold\\*\\*'],
    ['italic with stars', '*it*', '\\*it\\*'],
    ['italic with underscores', '_it_', '\\_it\\_'],
    ['underline', '__u__', '\\_\\_u\\_\\_'],
    ['bold italic underline', '***__x__***', '\\*\\*\\*\\_\\_x\\_\\_\\*\\*\\*'],
    ['strikethrough', '~~gone~~', '\\~\\~gone\\~\\~'],
    ['spoiler', '||secret||', '\\|\\|secret\\|\\|'],
    ['inline code', '`code`', '\\`code\\`'],
    ['double-backtick code', '``co`de``', '\\`\\`co\\`de\\`\\`'],
    ['code block', '```js\nx\n```', '\\`\\`\\`js\nx\n\\`\\`\\`'],
    ['a backslash', 'a\\b', 'a\\\\b'],
    ['an escape already in the text', '\\*not bold\\*', '\\\\\\*not bold\\\\\\*'],
    ['quote', '> quoted', '\\> quoted'],
    ['block quote', '>>> all of it', '\\>>> all of it'],
    ['heading 1', '# Big', '\\# Big'],
    ['heading 2', '## Big', '\\## Big'],
    ['heading 3', '### Big', '\\### Big'],
    ['subtext', '-# small', '\\-# small'],
    ['indented heading', '  # Big', '  \\# Big'],
    ['bulleted list with dash', '- item', '\\- item'],
    ['bulleted list with star', '* item', '\\* item'],
    ['bulleted list with plus', '+ item', '\\+ item'],
    ['numbered list', '1. first\n12. twelfth', '1\\. first\n12\\. twelfth'],
    ['block markers on later lines', 'a\n# b\n> c\n- d', 'a\n\\# b\n\\> c\n\\- d'],
    ['masked link', '[free skins](https://evil.example)', '\\[free skins\\](https://evil.example)'],
    ['everyone', 'hi @everyone', `hi @${ZWSP}everyone`],
    ['here', '@here now', `@${ZWSP}here now`],
    ['everyone in another case', '@EveryOne', `@${ZWSP}EveryOne`],
    ['user mention', '<@123456789012345678>', `<${ZWSP}@123456789012345678>`],
    ['nickname mention', '<@!123>', `<${ZWSP}@!123>`],
    ['role mention', '<@&123>', `<${ZWSP}@&123>`],
    ['channel mention', '<#123>', `<${ZWSP}#123>`],
    ['command mention', '</ban:123>', `<${ZWSP}/ban:123>`],
  ])('escapes %s', (_name, input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });

  it('leaves plain text, mid-line hashes and dashes, and numbers alone', () => {
    expect(escapeMarkdown('Hello, world! C# is a-ok, 3.5 > 2 and 2 < 3')).toBe(
      'Hello, world! C# is a-ok, 3.5 > 2 and 2 < 3',
    );
  });

  it('keeps bare URLs clickable, escaping only around them', () => {
    expect(escapeMarkdown('see https://example.com/a_b*c~d and *this*')).toBe(
      'see https://example.com/a_b*c~d and \\*this\\*',
    );
    expect(escapeMarkdown('http://x.test/__init__')).toBe('http://x.test/__init__');
  });

  it('breaks a mention hidden in a URL too', () => {
    expect(escapeMarkdown('https://x.test/@everyone')).toBe(`https://x.test/@${ZWSP}everyone`);
  });

  it('covers every case discord.js escapes by default', async () => {
    const { escapeMarkdown: discordEscape } = await import('discord.js');
    const samples = [
      '**a**',
      '*a*',
      '_a_',
      '__a__',
      '~~a~~',
      '||a||',
      '`a`',
      '```a```',
      '\\a',
      '***__a__***',
    ];
    for (const sample of samples) {
      expect(discordEscape(sample)).not.toBe(sample);
      expect(liveInlineMarkup(escapeMarkdown(sample))).toEqual([]);
    }
  });

  it('leaves no live inline markup outside URLs and no live block marker at a line start', () => {
    fc.assert(
      fc.property(markdownish, (input) => {
        const escaped = escapeMarkdown(input);
        expect(liveInlineMarkup(escaped)).toEqual([]);
        for (const lineText of escaped.split('\n')) {
          expect(lineText).not.toMatch(/^[ \t]*([>#+-]|\d+\.)/);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('leaves no live mention', () => {
    fc.assert(
      fc.property(markdownish, (input) => {
        expect(hasLiveMention(escapeMarkdown(input))).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('truncate', () => {
  it('returns text that fits unchanged', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('', 0)).toBe('');
  });

  it('cuts to max UTF-16 units, ellipsis included', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abcdef', 4)).toHaveLength(4);
  });

  it('counts UTF-16 units, as Discord does, so an astral character counts twice and is never split', () => {
    expect(truncate('😀😀😀', 6)).toBe('😀😀😀');
    expect(truncate('😀😀😀', 5)).toBe('😀😀…');
    expect(truncate('😀😀😀', 4)).toBe('😀…');
    expect(truncate('😀a', 2)).toBe('…');
    expect(truncate('a😀', 2)).toBe('a…');
  });

  it('keeps a grapheme whole or drops it whole', () => {
    const family = '👨‍👩‍👧‍👦';
    expect(codePointLength(family)).toBe(7);
    expect(family).toHaveLength(11);
    expect(truncate(`${family}${family}`, 12)).toBe(`${family}…`);
    expect(truncate(`${family}x`, 11)).toBe('…');
    expect(truncate('e\u0301e\u0301e\u0301', 4)).toBe('e\u0301…');
  });

  it('does not leave half of an escape dangling', () => {
    expect(truncate('ab\\*cd', 4)).toBe('ab…');
    expect(truncate('ab\\\\cd', 5)).toBe('ab\\\\…');
    expect(truncate('ab\\\\cd', 4)).toBe('ab…');
  });

  it('drops trailing whitespace before the ellipsis', () => {
    expect(truncate('ab    cd', 6)).toBe('ab…');
  });

  it('honours a custom ellipsis, even one longer than max', () => {
    expect(truncate('abcdef', 5, '...')).toBe('ab...');
    expect(truncate('abcdef', 2, '...')).toBe('..');
    expect(truncate('abcdef', 0)).toBe('');
  });
});

describe('safeText', () => {
  it('escapes then truncates', () => {
    expect(safeText('**hi**', 100)).toBe('\\*\\*hi\\*\\*');
    expect(safeText('aaa*bbb', 5)).toBe('aaa…');
  });

  it('falls back for missing or blank text', () => {
    expect(safeText(undefined, 10)).toBe('—');
    expect(safeText(null, 10)).toBe('—');
    expect(safeText('   \n', 10)).toBe('—');
    expect(safeText('', 10, 'none')).toBe('none');
  });

  it('replaces lone surrogates, which Discord refuses', () => {
    expect(safeText('a\uD800b', 10)).toBe('a\uFFFDb');
  });

  it('fits any string in any limit, never ends on a dangling escape and never mentions', () => {
    fc.assert(
      fc.property(
        fc.oneof(markdownish, fc.string({ unit: 'binary', maxLength: 80 })),
        fc.integer({ min: 1, max: 120 }),
        (input, max) => {
          const result = safeText(input, max);
          expect(result.length).toBeLessThanOrEqual(max);
          expect(result).not.toMatch(LONE_SURROGATE);
          expect(trailingBackslashes(result) % 2).toBe(0);
          expect(trailingBackslashes(result.replace(/…$/, '')) % 2).toBe(0);
          expect(hasLiveMention(result)).toBe(false);
          if (input.trim() !== '') {
            const escaped = escapeMarkdown(input.replace(LONE_SURROGATE, '\uFFFD'));
            if (result !== escaped) {
              expect(result.endsWith('…')).toBe(true);
              expect(escaped.startsWith(result.slice(0, -1))).toBe(true);
            }
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('looks only at the start of a long text, with the same result as escaping all of it', () => {
    const long = fc.string({
      unit: fc.oneof(markdownish, fc.constantFrom('𝔄', '\uD800', '\uDC00')),
      maxLength: 60,
    });
    fc.assert(
      fc.property(long, fc.integer({ min: 1, max: 120 }), (input, max) => {
        fc.pre(input.trim() === '' || input.slice(0, max + 16).trim() !== '');
        const whole =
          input.trim() === '' ? '—' : truncate(escapeMarkdown(input.replace(LONE_SURROGATE, '\uFFFD')), max);
        expect(safeText(input, max)).toBe(whole);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('DiscordLimits', () => {
  it('holds the limits Discord documents', () => {
    expect(DiscordLimits).toMatchObject({
      embedTitle: 256,
      embedDescription: 4096,
      embedFields: 25,
      fieldName: 256,
      fieldValue: 1024,
      footer: 2048,
      author: 256,
      embedTotal: 6000,
      embeds: 10,
      content: 2000,
      selectOptionLabel: 100,
      selectOptionDescription: 100,
      buttonLabel: 80,
      customId: 100,
      autocompleteChoiceName: 100,
      autocompleteChoices: 25,
    });
  });
});

describe('embedLength', () => {
  it('counts title, description, fields, footer text and author name, in UTF-16 units', () => {
    const embed: APIEmbed = {
      title: 'abc',
      description: '😀😀',
      fields: [
        { name: 'n1', value: 'v1' },
        { name: 'n2', value: 'value' },
      ],
      footer: { text: 'foot', icon_url: 'https://x.test/a.png' },
      author: { name: 'me', url: 'https://x.test' },
      url: 'https://not-counted.test',
      color: 1,
    };
    expect(embedLength(embed)).toBe(3 + 4 + 4 + 7 + 4 + 2);
    expect(embedLength({})).toBe(0);
  });
});

describe('checkMessageLimits', () => {
  const field = { name: 'n', value: 'v' };

  it('accepts a payload within limits', () => {
    expect(
      checkMessageLimits({
        content: 'x'.repeat(2000),
        embeds: [{ title: 't'.repeat(256), fields: Array.from({ length: 25 }, () => field) }],
      }),
    ).toEqual([]);
  });

  it('names each violated limit with its path', () => {
    const violations = checkMessageLimits({
      content: 'x'.repeat(2001),
      embeds: [
        {
          title: 't'.repeat(257),
          description: 'd'.repeat(4097),
          footer: { text: 'f'.repeat(2049) },
          author: { name: 'a'.repeat(257) },
          fields: [
            { name: 'n'.repeat(257), value: 'v'.repeat(1025) },
            { name: ' ', value: '' },
          ],
        },
      ],
    });
    expect(violations).toEqual(
      expect.arrayContaining([
        'content: 2001 > 2000',
        'embeds[0].title: 257 > 256',
        'embeds[0].description: 4097 > 4096',
        'embeds[0].footer.text: 2049 > 2048',
        'embeds[0].author.name: 257 > 256',
        'embeds[0].fields[0].name: 257 > 256',
        'embeds[0].fields[0].value: 1025 > 1024',
        'embeds[0].fields[1].name: empty',
        'embeds[0].fields[1].value: empty',
        'embeds total: 7943 > 6000',
      ]),
    );
    expect(violations).toHaveLength(10);
  });

  it('counts embeds, fields and the total across embeds', () => {
    expect(checkMessageLimits({ embeds: Array.from({ length: 11 }, () => ({ title: 'x' })) })).toEqual([
      'embeds: 11 > 10',
    ]);
    expect(checkMessageLimits({ embeds: [{ fields: Array.from({ length: 26 }, () => field) }] })).toEqual([
      'embeds[0].fields: 26 > 25',
    ]);
    const half = { description: 'd'.repeat(3001) };
    expect(checkMessageLimits({ embeds: [half, half] })).toEqual(['embeds total: 6002 > 6000']);
  });

  it('counts UTF-16 units as Discord does', () => {
    expect(checkMessageLimits({ content: '😀'.repeat(1000) })).toEqual([]);
    expect(checkMessageLimits({ content: '😀'.repeat(1000) + 'x' })).toEqual(['content: 2001 > 2000']);
  });

  it('refuses an empty message but accepts one that only carries a file', () => {
    expect(checkMessageLimits({})).toEqual(['message: empty (no content, embeds, components or files)']);
    expect(checkMessageLimits({ content: '', files: [{ name: 'chart.png' }] })).toEqual([]);
  });

  it('checks raw components', () => {
    const button = (label: string, custom_id = 'b') => ({ type: 2, style: 1, label, custom_id });
    const row = (components: unknown[]) => ({ type: 1, components });
    expect(checkMessageLimits({ content: 'x', components: [row([button('ok')])] })).toEqual([]);
    expect(
      checkMessageLimits({
        content: 'x',
        components: Array.from({ length: 6 }, () => row([button('ok')])),
      }),
    ).toEqual(['components: 6 rows > 5']);
    expect(
      checkMessageLimits({
        content: 'x',
        components: [
          row(Array.from({ length: 6 }, () => button('ok'))),
          row([button('l'.repeat(81), 'c'.repeat(101))]),
        ],
      }),
    ).toEqual([
      'components[0].components: 6 > 5',
      'components[1].components[0].custom_id: 101 > 100',
      'components[1].components[0].label: 81 > 80',
    ]);
    const select = {
      type: 3,
      custom_id: 's',
      placeholder: 'p'.repeat(151),
      options: [
        ...Array.from({ length: 25 }, (_, i) => ({ label: `o${i}`, value: `v${i}` })),
        { label: 'l'.repeat(101), value: 'v'.repeat(101), description: 'd'.repeat(101) },
      ],
    };
    expect(checkMessageLimits({ content: 'x', components: [row([select, button('ok')])] })).toEqual([
      'components[0].components: a select menu must be alone in its row',
      'components[0].components[0].placeholder: 151 > 150',
      'components[0].components[0].options: 26 > 25',
      'components[0].components[0].options[25].label: 101 > 100',
      'components[0].components[0].options[25].value: 101 > 100',
      'components[0].components[0].options[25].description: 101 > 100',
    ]);
  });

  it('checks discord.js builders through their JSON', () => {
    const embed = new EmbedBuilder().setTitle('t').setDescription('d'.repeat(4096));
    const tooLong = new EmbedBuilder({ title: 't'.repeat(2000) });
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('x'.repeat(100)).setLabel('l'.repeat(80)).setStyle(ButtonStyle.Primary),
    );
    expect(checkMessageLimits({ embeds: [embed], components: [row] })).toEqual([]);
    const select = new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
      new StringSelectMenuBuilder()
        .setCustomId('s')
        .addOptions(Array.from({ length: 25 }, (_, i) => ({ label: `o${i}`, value: `v${i}` }))),
    );
    expect(checkMessageLimits({ embeds: [tooLong], components: [select] })).toEqual([
      'embeds[0].title: 2000 > 256',
    ]);
  });

  it('checks components v2 totals', () => {
    const text = (content: string) => ({ type: 10, content });
    const container = { type: 17, components: Array.from({ length: 40 }, () => text('a'.repeat(101))) };
    expect(checkMessageLimits({ components: [container] })).toEqual([
      'components: 41 in total > 40',
      'components text: 4040 > 4000',
    ]);
  });
});

describe('checkAutocompleteChoices', () => {
  it('accepts up to 25 choices with names and values of up to 100', () => {
    expect(
      checkAutocompleteChoices(
        Array.from({ length: 25 }, (_, i) => ({ name: 'n'.repeat(100), value: i % 2 ? i : 'v'.repeat(100) })),
      ),
    ).toEqual([]);
  });

  it('names what is over or empty', () => {
    expect(
      checkAutocompleteChoices([
        ...Array.from({ length: 25 }, () => ({ name: 'n', value: 1 })),
        { name: '', value: 'v'.repeat(101) },
        { name: 'n'.repeat(101), value: 2 },
      ]),
    ).toEqual([
      'choices: 27 > 25',
      'choices[25].name: empty',
      'choices[25].value: 101 > 100',
      'choices[26].name: 101 > 100',
    ]);
  });
});

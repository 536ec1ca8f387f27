import i18next, { type i18n } from 'i18next';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { decodeComponentId, encodeComponentId } from '../../src/discord/component-id.ts';
import { UserError } from '../../src/core/user-error.ts';
import { renderError } from '../../src/render/errors.ts';
import { Translations, type Translator } from '../../src/i18n/index.ts';
import type { ReplyPayload } from '../../src/render/payload.ts';
import type { APIEmbed } from 'discord.js';
import {
  checkMessageLimits,
  DiscordLimits,
  escapeMarkdown,
  safeText,
  truncate,
} from '../../src/render/text.ts';
import { customIds, visibleText } from '../support/render.ts';
import { everyRenderer, renderers } from '../support/renderers.ts';

/**
 * Text from users and from the game is data: no template feature of i18next (nesting, interpolation,
 * formatting) may ever run over it, in any renderer. Before the fix `$t(` and 64 letters in a name made
 * i18next's nesting pattern backtrack for minutes; here i18next is watched so that a user value reaching it
 * is recorded (and not passed on, so the test fails instead of hanging).
 */
const ALLOWED_OPTIONS = new Set([
  'skipInterpolation',
  'count',
  'lng',
  'lngs',
  'ns',
  'keyPrefix',
  'fallbackLng',
]);

/** The keys of the locale files: user text in a key would be run through i18next's nesting pattern too. */
const OUR_KEY = /^[a-z-]+:[\w.-]+$|^[\w.]+$/;

const leaks: string[] = [];
const createInstance = i18next.createInstance.bind(i18next);
const spy = vi.spyOn(i18next, 'createInstance').mockImplementation((...args) => {
  const instance: i18n = createInstance(...args);
  const watch = (method: 't' | 'exists', refused: unknown) => {
    const original = instance[method].bind(instance) as (key: unknown, options?: unknown) => unknown;
    const watched = (key: unknown, options?: unknown): unknown => {
      const extra = Object.entries(options ?? {}).filter(
        ([name, value]) => !ALLOWED_OPTIONS.has(name) || (name === 'count' && typeof value !== 'number'),
      );
      if (extra.length > 0 || typeof key !== 'string' || !OUR_KEY.test(key)) {
        leaks.push(`${method}(${String(key).slice(0, 40)}): ${extra.map(([name]) => name).join(', ')}`);
        return refused;
      }
      return original(key, options);
    };
    Object.assign(instance, { [method]: watched });
  };
  watch('t', 'LEAKED');
  watch('exists', false);
  return instance;
});
const translations = new Translations();
spy.mockRestore();
afterAll(() => vi.restoreAllMocks());

const en = translations.for('en-US');
const de = translations.for('de');

const CRAFTED = '$t(' + 'a'.repeat(64);
const VARIANTS = [
  CRAFTED,
  `${CRAFTED})`,
  '{{name}}',
  '{{- name}} {{name, uppercase}}',
  '$t(common:footer)',
  '$t(common:x, {"a": "{{name}}"})',
  '%s %d $1 $& ${x}',
  '𝔄😀$t(𝔄',
];

/** What a renderer must show of `value`: its start, escaped for markdown, before any cut. */
function shown(value: string): string {
  return [...value.replace(/[\\*_~|`[\]]/g, '\\$&')].slice(0, 12).join('');
}

describe('user and game text through every renderer', () => {
  for (const value of VARIANTS) {
    it(`shows ${JSON.stringify(value)} literally and never hands it to i18next`, async () => {
      leaks.length = 0;
      for (const t of [en, de]) {
        for (const { name, payload, shows } of await everyRenderer(t, value)) {
          expect(checkMessageLimits(payload), name).toEqual([]);
          if (shows) expect(textOf(payload), name).toContain(shown(value));
        }
      }
      expect(leaks).toEqual([]);
    });
  }

  it('fills placeholders in one pass: a value that looks like a placeholder is not filled again', () => {
    leaks.length = 0;
    const line = en.t('link:verified.description', { name: '{{name}} $t(common:footer)' });
    expect(line).toContain('{{name}} $t(common:footer)');
    expect(line).not.toContain(en.t('common:footer'));
    expect(leaks).toEqual([]);
  });

  it('keeps user text in an error reply literal', () => {
    leaks.length = 0;
    const payload = renderError(new UserError('link:verified.description', { name: CRAFTED }), en, 'x');
    expect(visibleText(payload)).toContain(CRAFTED);
    expect(leaks).toEqual([]);
  });
});

describe('lone surrogates in names', () => {
  const LONE = 'Ghost\uD800x\uDFFFy';

  it('render everywhere, component ids included, and every custom id decodes within 100 characters', async () => {
    for (const { name, payload } of await everyRenderer(en, LONE)) {
      expect(checkMessageLimits(payload), name).toEqual([]);
      for (const id of customIds(payload).filter(Boolean)) {
        expect(id.length, name).toBeLessThanOrEqual(100);
        expect(decodeComponentId(id), name).toBeDefined();
      }
    }
  });

  it('encode as the replacement character, so the id is still well formed', () => {
    const id = encodeComponentId('player', 'matches', [LONE, 2], Date.UTC(2026, 0, 1));
    expect(id).toBeDefined();
    expect(decodeComponentId(id ?? '')?.args).toEqual(['Ghost\uFFFDx\uFFFDy', '2']);
  });
});

function textOf(payload: ReplyPayload): string {
  return `${visibleText(payload)}\n${(payload.files ?? []).map((file) => file.description ?? '').join('\n')}`;
}

describe('bounded work on huge upstream text and lists', () => {
  const HUGE = `${'Wide text _x_ '.repeat(40_000)}end`;

  /** The length of every string handed to the grapheme segmenter while `run` runs. */
  function segmented(run: () => void): number[] {
    const spy = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      run();
      return spy.mock.calls.map(([input]) => input.length);
    } finally {
      spy.mockRestore();
    }
  }

  it('truncates a 600,000-character string by looking at no more than the limit', () => {
    expect(HUGE.length).toBeGreaterThan(550_000);
    let cut = '';
    let safe = '';
    const lengths = segmented(() => {
      cut = truncate(HUGE, 100);
      safe = safeText(HUGE, 100);
    });
    expect(cut).toBe(`${HUGE.slice(0, 99).trimEnd()}…`);
    expect(safe).toBe(truncate(escapeMarkdown(HUGE.slice(0, 200)), 100));
    expect(safe).toMatch(/^Wide text \\_x\\_ Wide text .*…$/);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(200);
  });

  it('formats only the page of a 10,000-item list, in every renderer', async () => {
    for (const { name, payload, calls } of await counted(en, 10_000)) {
      expect(checkMessageLimits(payload), name).toEqual([]);
      expect(calls, name).toBeLessThanOrEqual(400);
    }
  });
});

describe('limits in UTF-16 code units, as Discord counts them', () => {
  it('counts an astral character as two', () => {
    expect(checkMessageLimits({ content: '😀'.repeat(1001) })).toEqual(['content: 2002 > 2000']);
    expect(truncate('𝔄'.repeat(10), 5)).toBe('𝔄𝔄…');
    expect(truncate('𝔄𝔄𝔄', 2)).toBe('…');
    expect(truncate('a𝔄𝔄', 3)).toBe('a…');
    expect(truncate('a𝔄𝔄', 4)).toBe('a𝔄…');
  });

  it('keeps every renderer within limits with astral-plane names, never splitting a pair', async () => {
    for (const value of ['𝔄'.repeat(400), `😀${'👨‍👩‍👧‍👦'.repeat(200)}`, `a${'𝔄'.repeat(3000)}`]) {
      for (const { name, payload } of await everyRenderer(en, value, 30)) {
        expect(utf16Violations(payload), name).toEqual([]);
        expect(visibleText(payload), name).not.toMatch(LONE_SURROGATE);
      }
    }
  });
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Discord's embed limits counted independently of src/render/text.ts, in UTF-16 units. */
function utf16Violations(payload: ReplyPayload): string[] {
  const problems: string[] = [];
  const over = (what: string, value: string | undefined, limit: number) => {
    if (value !== undefined && value.length > limit) problems.push(`${what}: ${value.length} > ${limit}`);
  };
  over('content', payload.content, DiscordLimits.content);
  let total = 0;
  for (const embed of payload.embeds ?? ([] as APIEmbed[])) {
    over('title', embed.title, DiscordLimits.embedTitle);
    over('description', embed.description, DiscordLimits.embedDescription);
    over('footer', embed.footer?.text, DiscordLimits.footer);
    over('author', embed.author?.name, DiscordLimits.author);
    for (const field of embed.fields ?? []) {
      over('field name', field.name, DiscordLimits.fieldName);
      over('field value', field.value, DiscordLimits.fieldValue);
      total += field.name.length + field.value.length;
    }
    total += (embed.title ?? '').length + (embed.description ?? '').length;
    total += (embed.footer?.text ?? '').length + (embed.author?.name ?? '').length;
  }
  if (total > DiscordLimits.embedTotal) problems.push(`total: ${total} > ${DiscordLimits.embedTotal}`);
  for (const row of payload.components ?? []) {
    for (const component of row.components) {
      if ('label' in component) over('label', component.label, DiscordLimits.buttonLabel);
      if ('options' in component) {
        for (const option of component.options) over('option', option.label, DiscordLimits.selectOptionLabel);
      }
    }
  }
  return problems;
}

/** Every renderer with a translator that counts its calls, fed lists of `count` items. */
async function counted(
  t: Translator,
  count: number,
): Promise<Array<{ name: string; payload: ReplyPayload; calls: number }>> {
  let calls = 0;
  const counting: Translator = {
    locale: t.locale,
    t: (key, vars) => {
      calls += 1;
      return t.t(key, vars);
    },
    n: (value, options) => {
      calls += 1;
      return t.n(value, options);
    },
  };
  const all: Array<{ name: string; payload: ReplyPayload; calls: number }> = [];
  // One after another, so that each renderer's calls are its own (a chart's renderer awaits its image).
  for (const { name, render } of renderers(counting, 'Ghost', count)) {
    const before = calls;
    const payload = await render();
    all.push({ name, payload, calls: calls - before });
  }
  return all;
}

import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, LOCALES, readLocaleFiles, Translations } from '../../src/i18n/index.ts';
import { leaves, PLURAL_SUFFIX as SUFFIX } from '../support/locales.ts';

/**
 * Plurals through i18next's plural keys (v4 JSON: `key_one`, `key_other`, and `_zero`, `_two`, `_few`,
 * `_many` where a language has them). Every key whose en-US text uses `{{count}}`, or that en-US writes
 * in plural forms, has in every locale each form `Intl.PluralRules` asks of that language; and no en-US
 * text writes a number before a plural noun ("{{n}} skins") outside plural keys, which reads "1 skins".
 */
const resources = readLocaleFiles();

/** Words after a placeholder that are no plural noun: verbs after a name ("{{name}} contains"), "vs". */
const NOT_NOUNS = new Set(['is', 'has', 'was', 'does', 'contains', 'leads', 'vs']);
/** A placeholder, then (on the same line) a word ending in s: "{{n}} skins", "**{{points}}** points". */
const NUMBER_THEN_NOUN = /\{\{\s*(\w+)\s*\}\}\**[ \t]+([a-z]+s)\b/g;

/** The plural forms of each key of a namespace: `base → categories` (a key without suffix has none). */
function pluralForms(keys: Iterable<string>): Map<string, Set<string>> {
  const forms = new Map<string, Set<string>>();
  for (const key of keys) {
    const match = SUFFIX.exec(key);
    if (!match) continue;
    const base = key.slice(0, match.index);
    forms.set(base, (forms.get(base) ?? new Set()).add(match[1]!));
  }
  return forms;
}

const english = resources[DEFAULT_LOCALE] ?? {};

/** Every key that needs plural forms: en-US writes it in forms, or its text uses {{count}}. */
function pluralKeys(): Array<{ namespace: string; base: string }> {
  const out: Array<{ namespace: string; base: string }> = [];
  for (const [namespace, content] of Object.entries(english)) {
    const texts = leaves(content);
    const bases = new Set(pluralForms(texts.keys()).keys());
    for (const [key, text] of texts) {
      if (!SUFFIX.test(key) && /\{\{\s*count\s*\}\}/.test(text)) bases.add(key);
    }
    for (const base of bases) out.push({ namespace, base });
  }
  return out;
}

describe('plural forms', () => {
  it('finds plural keys to check', () => {
    expect(pluralKeys().length).toBeGreaterThan(10);
  });

  for (const locale of LOCALES) {
    it(`${locale} has every plural form its language needs for every plural key`, () => {
      const needed = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
      const problems: string[] = [];
      for (const { namespace, base } of pluralKeys()) {
        const present = pluralForms(leaves(resources[locale]?.[namespace]).keys()).get(base) ?? new Set();
        const missing = needed.filter((category) => !present.has(category));
        if (missing.length > 0) {
          problems.push(
            `${locale}/${namespace}.json "${base}" lacks ${missing.map((c) => `_${c}`).join(', ')}`,
          );
        }
      }
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }

  it('en-US writes no number before a plural noun outside plural keys ("1 skins")', () => {
    const problems: string[] = [];
    for (const [namespace, content] of Object.entries(english)) {
      for (const [key, text] of leaves(content)) {
        if (SUFFIX.test(key)) continue;
        for (const [, name, word] of text.matchAll(NUMBER_THEN_NOUN)) {
          if (!NOT_NOUNS.has(word!)) problems.push(`${namespace}:${key}: "{{${name}}} ${word}" in "${text}"`);
        }
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('picks the right form through the bot’s translator, Polish and Russian included', async () => {
    const { Translations } = await import('../../src/i18n/index.ts');
    const translations = new Translations(resources);
    const en = translations.for('en-US');
    const ru = translations.for('ru');
    const pl = translations.for('pl');
    expect(en.t('clan:members.count', { count: 1, n: '1' })).toBe('1 member');
    expect(en.t('clan:members.count', { count: 2, n: '2' })).toBe('2 members');
    expect(en.t('roles:sync.changed', { count: 1, members: '1', added: '2', removed: '0' })).toBe(
      '1 member looked at: 2 roles added, 0 removed.',
    );
    expect(en.t('turf:payouts.footer', { count: 1, kr: '50', players: '1' })).toBe('50 KR paid to 1 player');
    expect(en.t('market:overview.recentSales', { count: 7, n: '7' })).toBe('Sales of the last 7 days');
    expect([1, 3, 5, 21].map((n) => ru.t('clan:members.count', { count: n, n: String(n) }))).toEqual([
      '1 участник',
      '3 участника',
      '5 участников',
      '21 участник',
    ]);
    expect([1, 3, 5, 22].map((n) => pl.t('clan:members.count', { count: n, n: String(n) }))).toEqual([
      '1 członek',
      '3 członkowie',
      '5 członków',
      '22 członkowie',
    ]);
  });
});

describe('plural forms in use', () => {
  it('picks the form by the count', () => {
    const translations = new Translations();
    const en = translations.for('en-US');
    const pl = translations.for('pl');
    const ru = translations.for('ru');
    expect(en.t('player:inventory.unpriced', { count: 1 })).toBe('1 skin');
    expect(en.t('player:inventory.unpriced', { count: 2 })).toBe('2 skins');
    expect(en.t('match:scoreTeam', { mark: '🟩', team: 'Team 1', count: 1 })).toBe('🟩 Team 1: 1 round');
    expect(pl.t('player:history.played', { count: 1 })).toBe('1 mecz');
    expect(pl.t('player:history.played', { count: 3 })).toBe('3 mecze');
    expect(pl.t('player:history.played', { count: 5 })).toBe('5 meczów');
    expect(ru.t('player:inventory.items', { count: 21 })).toBe('21 предмет');
    expect(ru.t('player:inventory.items', { count: 22 })).toBe('22 предмета');
    expect(ru.t('player:inventory.items', { count: 25 })).toBe('25 предметов');
  });
});

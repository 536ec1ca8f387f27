import { describe, expect, it } from 'vitest';
import { LOCALES, readLocaleFiles, Translations } from '../../src/i18n/index.ts';

/**
 * `/player` and `/match` say counts in the plural form each language needs ("1 skin", "2 skins"; pl and ru
 * one/few/many/other): every key of player.json and match.json whose text has `{{count}}` is an i18next
 * plural key with every category `Intl.PluralRules` gives the language, and no other.
 */
const resources = readLocaleFiles();
const NAMESPACES = ['player', 'match'] as const;
const PLURAL = /^(.*)_(zero|one|two|few|many|other)$/;

function leaves(value: unknown, prefix = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[prefix, value]];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

describe('plural forms of player.json and match.json', () => {
  for (const locale of LOCALES) {
    it(`${locale}: every {{count}} key has exactly the plural categories of the language`, () => {
      const needed = new Intl.PluralRules(locale).resolvedOptions().pluralCategories.slice().sort();
      for (const namespace of NAMESPACES) {
        const texts = leaves(resources[locale]?.[namespace]);
        const forms = new Map<string, string[]>();
        for (const [key, text] of texts) {
          const plural = PLURAL.exec(key);
          if (plural) forms.set(plural[1]!, [...(forms.get(plural[1]!) ?? []), plural[2]!]);
          else
            expect(text, `${locale}/${namespace}:${key} counts without plural forms`).not.toMatch(
              /\{\{count\}\}/,
            );
        }
        expect(forms.size, `${locale}/${namespace} has plural keys`).toBeGreaterThan(0);
        for (const [base, categories] of forms) {
          expect(categories.sort(), `${locale}/${namespace}:${base}`).toEqual(needed);
        }
      }
    });
  }

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

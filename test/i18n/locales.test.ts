import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/discord/loader.ts';
import { DEFAULT_LOCALE, LOCALES, readLocaleFiles, Translations } from '../../src/i18n/index.ts';
import { codePointLength } from '../../src/render/text.ts';
import { leaves, PLURAL_SUFFIX as PLURAL } from '../support/locales.ts';

/**
 * Every locale ships every namespace with exactly en-US's keys and placeholders, and every localized
 * command, option and choice name is one Discord accepts.
 */
const resources = readLocaleFiles();
const NAME = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** i18next's plural suffixes: a language has the forms it needs (test/i18n/plurals.test.ts checks them). */

const keysOf = (texts: Map<string, string>) =>
  [...new Set([...texts.keys()].map((k) => k.replace(PLURAL, '')))].sort();

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('locale files', () => {
  it('ship exactly the eight locales', () => {
    expect(Object.keys(resources).sort()).toEqual([...LOCALES].sort());
  });

  const english = resources[DEFAULT_LOCALE] ?? {};
  for (const locale of LOCALES.filter((l) => l !== DEFAULT_LOCALE)) {
    it(`${locale} has every namespace and key of en-US, with the same placeholders`, () => {
      const theirs = resources[locale] ?? {};
      expect(Object.keys(theirs).sort()).toEqual(Object.keys(english).sort());
      for (const [namespace, content] of Object.entries(english)) {
        const ours = leaves(content);
        const translated = leaves(theirs[namespace]);
        expect(keysOf(translated), `${locale}/${namespace}.json keys`).toEqual(keysOf(ours));
        for (const [key, text] of translated) {
          expect(text.trim(), `${locale}/${namespace}:${key} is empty`).not.toBe('');
          if (!PLURAL.test(key)) {
            expect(placeholders(text), `${locale}/${namespace}:${key}`).toEqual(
              placeholders(ours.get(key) ?? ''),
            );
            continue;
          }
          // A plural form has en-US's placeholders (of all its forms), the number itself where it says it
          // ("one member", Russian "21 участник").
          const base = key.replace(PLURAL, '');
          const english = new Set(
            [...ours].filter(([k]) => k.replace(PLURAL, '') === base).flatMap(([, v]) => placeholders(v)),
          );
          const own = new Set(placeholders(text));
          expect(
            [...own].filter((p) => !english.has(p)),
            `${locale}/${namespace}:${key} extra`,
          ).toEqual([]);
          const needed = [...english].filter((p) => p !== 'count' && p !== 'n' && !own.has(p));
          expect(needed, `${locale}/${namespace}:${key} missing`).toEqual([]);
        }
      }
    });
  }
});

describe('localized command definitions', async () => {
  const commands = await loadCommands(new Translations());

  type Localizable = {
    name: string;
    description?: string;
    name_localizations?: Record<string, string> | null;
    description_localizations?: Record<string, string> | null;
    options?: Localizable[];
    choices?: Array<{ name: string; name_localizations?: Record<string, string> | null }>;
  };

  const others = LOCALES.filter((l) => l !== DEFAULT_LOCALE);

  function check(node: Localizable, path: string, problems: string[]): void {
    const names: Array<[string, string]> = [
      [DEFAULT_LOCALE, node.name],
      ...Object.entries(node.name_localizations ?? {}),
    ];
    for (const [locale, name] of names) {
      if (!NAME.test(name) || name !== name.toLowerCase() || name !== name.toLocaleLowerCase(locale)) {
        problems.push(`${path}: invalid ${locale} name "${name}"`);
      }
    }
    for (const text of [node.description ?? '', ...Object.values(node.description_localizations ?? {})]) {
      const length = codePointLength(text);
      if (length < 1 || length > 100) problems.push(`${path}: description of ${length} characters`);
    }
    for (const locale of others) {
      if (!node.description_localizations?.[locale]) problems.push(`${path}: no ${locale} description`);
      if (!node.name_localizations?.[locale]) problems.push(`${path}: no ${locale} name`);
    }
    for (const [what, map] of [
      ['name', node.name_localizations],
      ['description', node.description_localizations],
    ] as const) {
      const extra = Object.keys(map ?? {}).filter((locale) => !(others as string[]).includes(locale));
      if (extra.length > 0) problems.push(`${path}: ${what} in locales not shipped: ${extra.join(', ')}`);
    }
    for (const choice of node.choices ?? []) {
      for (const name of [choice.name, ...Object.values(choice.name_localizations ?? {})]) {
        const length = codePointLength(name);
        if (length < 1 || length > 100) problems.push(`${path}.choices: "${name}" of ${length} characters`);
      }
      const locales = Object.keys(choice.name_localizations ?? {}).sort();
      if (locales.join() !== [...others].sort().join()) {
        problems.push(
          `${path}.choices: "${choice.name}" named in ${locales.join(', ') || 'no other locale'}`,
        );
      }
    }
    // Options side by side need distinct names in every locale, not only in en-US.
    for (const locale of LOCALES) {
      const siblings = new Set<string>();
      for (const option of node.options ?? []) {
        const name =
          locale === DEFAULT_LOCALE ? option.name : (option.name_localizations?.[locale] ?? option.name);
        if (siblings.has(name)) problems.push(`${path}: two options named ${name} in ${locale}`);
        siblings.add(name);
      }
    }
    for (const option of node.options ?? []) check(option, `${path} ${option.name}`, problems);
  }

  it('are valid for Discord in every locale', () => {
    const problems: string[] = [];
    for (const command of commands) check(command.json as Localizable, `/${command.json.name}`, problems);
    expect(problems).toEqual([]);
  });
});

describe('modal texts', () => {
  const translations = new Translations();

  it('fit Discord modal limits in every locale (title and label 45, description 100)', () => {
    for (const locale of LOCALES) {
      const t = translations.for(locale);
      const titles = [
        t.t('kpd:modal.title'),
        ...['wallet', 'market-history', 'listings', 'trades', 'ranked', 'matches'].map((s) =>
          t.t(`me:modal.title.${s}`),
        ),
      ];
      for (const title of [...titles, t.t('kpd:modal.label'), t.t('me:modal.label')]) {
        expect(codePointLength(title), `${locale} ${title}`).toBeLessThanOrEqual(45);
      }
      for (const description of [t.t('kpd:modal.description'), t.t('me:modal.description')]) {
        expect(codePointLength(description), `${locale} ${description}`).toBeLessThanOrEqual(100);
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import { command as kpd } from '../../commands/kpd.ts';
import { command as link } from '../../commands/link.ts';
import { command as me } from '../../commands/me.ts';
import { command as unlink } from '../../commands/unlink.ts';
import type { APIApplicationCommandOption } from 'discord.js';
import { localizeCommand } from '../../src/discord/localize.ts';
import { LOCALES, readLocaleFiles, Translations } from '../../src/i18n/index.ts';
import { codePointLength } from '../../src/render/text.ts';

const NAMESPACES = ['kpd', 'link', 'unlink', 'me'] as const;
const COMMANDS = { kpd, link, unlink, me };
const resources = readLocaleFiles();
const translations = new Translations(resources);
const NAME = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

function leaves(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, text] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(path, text);
    }
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe.each(NAMESPACES)('the %s namespace', (namespace) => {
  const english = leaves(resources['en-US']?.[namespace]);

  it('exists in every locale with exactly the same keys and placeholders', () => {
    expect(english.size).toBeGreaterThan(3);
    for (const locale of LOCALES) {
      const local = leaves(resources[locale]?.[namespace]);
      expect([...local.keys()].sort(), locale).toEqual([...english.keys()].sort());
      for (const [key, text] of english) {
        expect(placeholders(local.get(key) ?? ''), `${locale} ${key}`).toEqual(placeholders(text));
        expect((local.get(key) ?? '').trim(), `${locale} ${key}`).not.toBe('');
      }
    }
  });

  it('localizes the command with names and descriptions Discord accepts in every locale', () => {
    const json = localizeCommand(COMMANDS[namespace].data, namespace, translations);
    const check = (
      item: {
        name: string;
        description?: string;
        name_localizations?: unknown;
        description_localizations?: unknown;
      },
      where: string,
    ) => {
      const names = { 'en-US': item.name, ...(item.name_localizations as Record<string, string>) };
      const descriptions = {
        'en-US': item.description,
        ...(item.description_localizations as Record<string, string>),
      };
      expect(Object.keys(names).sort(), where).toEqual([...LOCALES].sort());
      for (const [locale, name] of Object.entries(names)) {
        expect(name, `${where} ${locale}`).toMatch(NAME);
        expect(name, `${where} ${locale}`).toBe(name.toLocaleLowerCase(locale));
      }
      for (const [locale, description] of Object.entries(descriptions)) {
        expect(codePointLength(description ?? ''), `${where} ${locale} description`).toBeGreaterThan(0);
        expect(codePointLength(description ?? ''), `${where} ${locale} description`).toBeLessThanOrEqual(100);
      }
    };
    check(json, namespace);
    const walk = (options: readonly APIApplicationCommandOption[] | undefined, where: string) => {
      for (const locale of LOCALES) {
        const siblings = (options ?? []).map((o) =>
          locale === 'en-US' ? o.name : (o.name_localizations?.[locale] ?? o.name),
        );
        expect(new Set(siblings).size, `${where} ${locale} sibling names`).toBe(siblings.length);
      }
      for (const option of options ?? []) {
        check(option, `${where} ${option.name}`);
        const choices: ReadonlyArray<{ name: string; name_localizations?: unknown }> =
          ('choices' in option ? option.choices : undefined) ?? [];
        for (const choice of choices) {
          const names = [
            choice.name,
            ...Object.values((choice.name_localizations ?? {}) as Record<string, string>),
          ];
          expect(names, `${where} ${option.name} choice`).toHaveLength(LOCALES.length);
          for (const name of names) {
            expect(codePointLength(name)).toBeGreaterThan(0);
            expect(codePointLength(name)).toBeLessThanOrEqual(100);
          }
        }
        if ('options' in option) walk(option.options, `${where} ${option.name}`);
      }
    };
    walk(json.options, namespace);
  });
});

describe('modal texts', () => {
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

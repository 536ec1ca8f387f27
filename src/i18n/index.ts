import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next, { type i18n, type Resource } from 'i18next';
import { packageRoot } from '../core/package-root.ts';

/**
 * Translations: `locales/<discord-locale>/<namespace>.json`, one namespace per command plus `common`.
 * Replies use the user's locale, then the guild's, then en-US; Discord locales we do not ship fall
 * back along `FALLBACKS` (en-GB → en-US, es-419 → es-ES) before en-US.
 */
export const LOCALES = ['en-US', 'de', 'es-ES', 'fr', 'pt-BR', 'ru', 'pl', 'tr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';

const FALLBACKS: Readonly<Record<string, Locale>> = { 'en-GB': 'en-US', 'es-419': 'es-ES' };

// At the package root, from src/i18n/index.ts under tsx as from dist/src/i18n/index.js compiled.
export const LOCALES_DIR = fileURLToPath(new URL('locales/', packageRoot(import.meta.url, 2)));

export interface Translator {
  readonly locale: Locale;
  /**
   * `namespace:key.path`, or a key of `common`; `{{var}}` placeholders are filled from `vars`, verbatim.
   * `vars.defaultValue` is the text (taken literally) for a key no locale has; a numeric `vars.count`
   * also picks the plural form.
   */
  t(key: string, vars?: Record<string, unknown>): string;
  /** A number in the reader's locale. */
  n(value: number, options?: Intl.NumberFormatOptions): string;
}

export function isLocale(value: string | null | undefined): value is Locale {
  return (LOCALES as readonly string[]).includes(value ?? '');
}

/** The locale we reply in: the first of the candidates we ship (or fall back to), else en-US. */
export function pickLocale(...candidates: Array<string | null | undefined>): Locale {
  for (const candidate of candidates) {
    if (isLocale(candidate)) return candidate;
    const fallback = candidate ? FALLBACKS[candidate] : undefined;
    if (fallback) return fallback;
  }
  return DEFAULT_LOCALE;
}

/** Reads every locale file: `{ locale: { namespace: json } }`. */
export function readLocaleFiles(dir: string = LOCALES_DIR): Record<string, Record<string, unknown>> {
  const resources: Record<string, Record<string, unknown>> = {};
  for (const locale of readdirSync(dir)) {
    const namespaces: Record<string, unknown> = {};
    for (const file of readdirSync(join(dir, locale)).filter((name) => name.endsWith('.json'))) {
      namespaces[file.slice(0, -'.json'.length)] = JSON.parse(
        readFileSync(join(dir, locale, file), 'utf8'),
      ) as unknown;
    }
    resources[locale] = namespaces;
  }
  return resources;
}

const NO_INTERPOLATION = { skipInterpolation: true } as const;
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;
/** `namespace:path.to.key`: anything else (a key built from stored or game text) is not looked up. */
const TRANSLATION_KEY = /^[\w-]{1,64}(?::[\w.-]{1,200})?$/;

export function isTranslationKey(key: string): boolean {
  return TRANSLATION_KEY.test(key);
}

/**
 * `{{name}}` placeholders of a template filled from `vars` in one pass: a value is inserted as it is and never
 * scanned again, so text that looks like a placeholder or a nesting stays text. A placeholder without a var
 * is left as it is; a var that is not a string, number or boolean fills in nothing.
 */
export function fillPlaceholders(template: string, vars: Readonly<Record<string, unknown>>): string {
  return template.replace(PLACEHOLDER, (placeholder, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(vars, name)) return placeholder;
    const value = vars[name];
    if (typeof value === 'string') return value;
    return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
      ? String(value)
      : '';
  });
}

/**
 * Templates looked up at most: the keys of the locale files in each locale and plural form fit many times
 * over; past it (keys built from data) the memo starts again rather than grow.
 */
const MAX_TEMPLATES = 8_192;

export class Translations {
  readonly #i18n: i18n;
  readonly #numberFormats = new Map<string, Intl.NumberFormat>();
  readonly #pluralRules = new Map<string, Intl.PluralRules>();
  /** Each template i18next gave, by locale, key and plural form, and whether some locale has the key. */
  readonly #templates = new Map<string, { found: boolean; text: string }>();
  readonly resources: Record<string, Record<string, unknown>>;

  constructor(resources: Record<string, Record<string, unknown>> = readLocaleFiles()) {
    this.resources = resources;
    this.#i18n = i18next.createInstance();
    void this.#i18n.init({
      resources: resources as Resource,
      lng: DEFAULT_LOCALE,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: Object.keys(resources),
      ns: Object.keys(resources[DEFAULT_LOCALE] ?? {}),
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
      showSupportNotice: false,
    });
  }

  for(locale: Locale): Translator {
    return {
      locale,
      t: (key, vars = {}) => {
        // i18next only looks the template up, by a key of our own shape: user and game text never reaches it,
        // so none of its template features (nesting, formatting) can run over that text.
        const fallback = typeof vars['defaultValue'] === 'string' ? vars['defaultValue'] : undefined;
        if (!isTranslationKey(key)) return fallback ?? key;
        const count = vars['count'];
        const template = this.#template(locale, key, typeof count === 'number' ? count : undefined);
        if (fallback !== undefined && !template.found) return fallback;
        return fillPlaceholders(template.text, vars);
      },
      n: (value, options) => this.#format(locale, options).format(value),
    };
  }

  /**
   * The template of `key` in `locale` (or its fallback) for `count`, and whether any locale has it.
   * An i18next lookup takes tens of microseconds (it canonicalizes the locale on every call) and a reply
   * makes dozens; the locale files never change while the bot runs, so each answer is kept. The plural
   * form is all that `count` changes: i18next picks `_zero` for 0, else the suffix of the count's plural
   * category in the locale, then in the fallback en-US, so those make the memo's key.
   */
  #template(locale: Locale, key: string, count: number | undefined): { found: boolean; text: string } {
    const form =
      count === undefined
        ? ''
        : `${count === 0 ? 'zero' : ''}|${this.#plural(locale).select(count)}|${this.#plural(DEFAULT_LOCALE).select(count)}`;
    const id = `${locale}\0${key}\0${form}`;
    const kept = this.#templates.get(id);
    if (kept !== undefined) return kept;
    const options = count === undefined ? NO_INTERPOLATION : { count, skipInterpolation: true };
    const template = {
      found: this.#i18n.exists(key, { lng: locale, ...options }),
      text: this.#i18n.getFixedT(locale)(key, options),
    };
    if (this.#templates.size >= MAX_TEMPLATES) this.#templates.clear();
    this.#templates.set(id, template);
    return template;
  }

  #plural(locale: Locale): Intl.PluralRules {
    let rules = this.#pluralRules.get(locale);
    if (!rules) {
      rules = new Intl.PluralRules(locale);
      this.#pluralRules.set(locale, rules);
    }
    return rules;
  }

  /** A key's text in every shipped locale (for `name_localizations`/`description_localizations`). */
  everyLocale(key: string): Partial<Record<Locale, string>> {
    const out: Partial<Record<Locale, string>> = {};
    for (const locale of LOCALES) {
      if (isTranslationKey(key) && this.#i18n.exists(key, { lng: locale, fallbackLng: false })) {
        out[locale] = this.#i18n.getFixedT(locale)(key, NO_INTERPOLATION);
      }
    }
    return out;
  }

  #format(locale: Locale, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
    // Most numbers come without options: their format is found without serializing any.
    const id = options === undefined ? locale : `${locale}|${JSON.stringify(options)}`;
    let format = this.#numberFormats.get(id);
    if (!format) {
      format = new Intl.NumberFormat(locale, options);
      this.#numberFormats.set(id, format);
    }
    return format;
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next, { type i18n, type Resource } from 'i18next';

/**
 * Translations: `locales/<discord-locale>/<namespace>.json`, one namespace per command plus `common`.
 * Replies use the user's locale, then the guild's, then en-US; Discord locales we do not ship fall
 * back along `FALLBACKS` (en-GB → en-US, es-419 → es-ES) before en-US.
 */
export const LOCALES = ['en-US', 'de', 'es-ES', 'fr', 'pt-BR', 'ru', 'pl', 'tr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';

const FALLBACKS: Readonly<Record<string, Locale>> = { 'en-GB': 'en-US', 'es-419': 'es-ES' };

export const LOCALES_DIR = fileURLToPath(new URL('../../locales/', import.meta.url));

export interface Translator {
  readonly locale: Locale;
  /** `namespace:key.path`, or a key of `common`; `{{var}}` placeholders are filled from `vars`. */
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

export class Translations {
  readonly #i18n: i18n;
  readonly #numberFormats = new Map<string, Intl.NumberFormat>();
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
    const fixed = this.#i18n.getFixedT(locale);
    return {
      locale,
      t: (key, vars) => fixed(key, vars ?? {}),
      n: (value, options) => this.#format(locale, options).format(value),
    };
  }

  /** A key's text in every shipped locale (for `name_localizations`/`description_localizations`). */
  everyLocale(key: string): Partial<Record<Locale, string>> {
    const out: Partial<Record<Locale, string>> = {};
    for (const locale of LOCALES) {
      if (this.#i18n.exists(key, { lng: locale, fallbackLng: false })) {
        out[locale] = this.#i18n.getFixedT(locale)(key);
      }
    }
    return out;
  }

  #format(locale: Locale, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
    const id = `${locale}|${JSON.stringify(options)}`;
    let format = this.#numberFormats.get(id);
    if (!format) {
      format = new Intl.NumberFormat(locale, options);
      this.#numberFormats.set(id, format);
    }
    return format;
  }
}

import { describe, expect, it } from 'vitest';
import { fillPlaceholders, isTranslationKey, Translations } from '../../src/i18n/index.ts';

/** The translator looks templates up with i18next and fills them itself, treating every value as text. */
const translations = new Translations({
  'en-US': {
    common: {
      hello: 'Hello {{name}}, {{ name }}!',
      pair: '{{a}}/{{b}}',
      apple_one: '{{count}} apple',
      apple_other: '{{count}} apples',
      nested: 'before $t(common:hello) after',
    },
    other: { line: 'Other {{x}}' },
  },
  de: { common: { hello: 'Hallo {{name}}' } },
});
const en = translations.for('en-US');
const de = translations.for('de');

describe('Translator.t', () => {
  it('fills every placeholder once, with the value as it is', () => {
    expect(en.t('common:hello', { name: '{{name}}' })).toBe('Hello {{name}}, {{name}}!');
    expect(en.t('hello', { name: '$t(common:pair)' })).toBe('Hello $t(common:pair), $t(common:pair)!');
    expect(en.t('common:pair', { a: '{{b}}', b: '$&$1' })).toBe('{{b}}/$&$1');
    expect(en.t('other:line', { x: 42 })).toBe('Other 42');
  });

  it('leaves nesting in a template alone: no locale uses it', () => {
    expect(en.t('common:nested')).toBe('before $t(common:hello) after');
  });

  it('falls back to en-US, and keeps a placeholder whose var is missing', () => {
    expect(de.t('common:hello', { name: 'Ann' })).toBe('Hallo Ann');
    expect(de.t('common:pair', { a: 1 })).toBe('1/{{b}}');
    expect(en.t('common:pair', { a: null, b: undefined })).toBe('/');
  });

  it('picks the plural form for a numeric count', () => {
    expect(en.t('common:apple', { count: 1 })).toBe('1 apple');
    expect(en.t('common:apple', { count: 3 })).toBe('3 apples');
  });

  it('keeps the plural form of each count apart, in the locale and in the en-US it falls back to', () => {
    const plurals = new Translations({
      'en-US': {
        common: { apple_zero: 'no apples', apple_one: '{{count}} apple', apple_other: '{{count}} apples' },
      },
      ru: {
        common: { pear_one: '{{count}} груша', pear_few: '{{count}} груши', pear_many: '{{count}} груш' },
      },
    });
    const english = plurals.for('en-US');
    const russian = plurals.for('ru');
    // Each count asked twice: a template kept from one count must never answer another form.
    for (let round = 0; round < 2; round += 1) {
      expect([0, 1, 2].map((count) => english.t('common:apple', { count }))).toEqual([
        'no apples',
        '1 apple',
        '2 apples',
      ]);
      // 1 and 21 are both "one" in Russian, but not in the en-US text it falls back to.
      expect([1, 21, 0].map((count) => russian.t('common:apple', { count }))).toEqual([
        '1 apple',
        '21 apples',
        'no apples',
      ]);
      expect([21, 3, 11].map((count) => russian.t('common:pear', { count }))).toEqual([
        '21 груша',
        '3 груши',
        '11 груш',
      ]);
      expect(english.t('common:missing', { defaultValue: 'fallback' })).toBe('fallback');
      expect(english.t('common:apple', { count: 1, defaultValue: 'fallback' })).toBe('1 apple');
    }
  });

  it('shows a default value literally when no locale has the key, and never looks up a key of user text', () => {
    expect(en.t('common:missing', { defaultValue: '{{name}} $t(common:hello)', name: 'x' })).toBe(
      '{{name}} $t(common:hello)',
    );
    const crafted = `common:kinds.$t(${'a'.repeat(64)}`;
    expect(isTranslationKey(crafted)).toBe(false);
    expect(en.t(crafted, { defaultValue: 'fallback' })).toBe('fallback');
    expect(en.t(crafted)).toBe(crafted);
  });
});

describe('fillPlaceholders', () => {
  it('scans the template once, never what it inserted', () => {
    const value = `{{v}}${'{{v}}'.repeat(1000)}`;
    expect(fillPlaceholders('<{{v}}>', { v: value })).toBe(`<${value}>`);
  });
});

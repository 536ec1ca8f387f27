import { describe, expect, it, vi } from 'vitest';
import { decodeComponentId, encodeComponentId } from '../../src/discord/component-id.ts';
import { NameIndex } from '../../src/names/index.ts';
import { Responder, type AnswerableInteraction } from '../../src/discord/responder.ts';
import { pickLocale, Translations } from '../../src/i18n/index.ts';
import { parseTime } from '../../src/core/time.ts';
import { fit, pageRow, timestamp } from '../../src/render/common.ts';
import { codePointLength, embedLength } from '../../src/render/text.ts';

describe('component ids', () => {
  it('round-trips arguments with separators in them', () => {
    const id = encodeComponentId('player', 'matches', ['a:b~c', 0, 2], 1_800_000_000_000);
    expect(id).toBeDefined();
    expect(decodeComponentId(id!)).toEqual({
      command: 'player',
      action: 'matches',
      args: ['a:b~c', '0', '2'],
      expiresAt: 1_800_000_000_000,
    });
  });

  it('refuses arguments that do not fit in 100 characters, and garbage ids', () => {
    expect(encodeComponentId('player', 'matches', ['x'.repeat(90)], 1)).toBeUndefined();
    expect(decodeComponentId('no-expiry-here')).toBeUndefined();
    expect(decodeComponentId('a:b:%E0%A4%A~zz')).toBeUndefined();
  });
});

describe('NameIndex', () => {
  it('suggests prefixes first, then substrings, up to 25', () => {
    const names = new NameIndex();
    names.remember('player', 'Sniper', 'SuperSniper', 'Snipe', 'Other', undefined, '');
    expect(names.suggest('player', 'snip').map((s) => s.name)).toEqual(['Snipe', 'Sniper', 'SuperSniper']);
    names.seed(
      'player',
      Array.from({ length: 40 }, (_, i) => `p${i}`),
    );
    expect(names.suggest('player', 'p')).toHaveLength(25);
  });

  it('suggests skins by name or index, with the index as value', () => {
    const names = new NameIndex();
    names.seedSkins([
      { index: 3, name: 'Arctic Raven' },
      { index: 31, name: 'Neon Fang' },
    ]);
    expect(names.suggestSkins('raven')).toEqual([{ name: 'Arctic Raven (#3)', value: 3 }]);
    expect(names.suggestSkins('3').map((s) => s.value)).toEqual([3, 31]);
    expect(names.skinName(31)).toBe('Neon Fang');
  });
});

describe('locales', () => {
  it('picks the user locale, then the guild locale, then en-US', () => {
    expect(pickLocale('de', 'fr')).toBe('de');
    expect(pickLocale('ja', 'fr')).toBe('fr');
    expect(pickLocale('en-GB', undefined)).toBe('en-US');
    expect(pickLocale('es-419')).toBe('es-ES');
    expect(pickLocale(undefined, null)).toBe('en-US');
  });

  it('formats numbers in the reader locale', () => {
    const translations = new Translations();
    expect(translations.for('de').n(1234.5)).toBe('1.234,5');
    expect(translations.for('en-US').n(1234.5)).toBe('1,234.5');
  });
});

describe('render helpers', () => {
  it('reads both timestamp formats of the API', () => {
    expect(parseTime('2026-03-17 12:00:00')).toBe(Date.UTC(2026, 2, 17, 12));
    expect(timestamp('2026-03-17T12:00:00Z', 'R')).toBe(`<t:${Date.UTC(2026, 2, 17, 12) / 1000}:R>`);
    expect(timestamp('not a date')).toBe('—');
  });

  it('fits an oversized embed within 6000 characters', () => {
    const fitted = fit({
      title: 't'.repeat(300),
      description: 'd'.repeat(5000),
      fields: Array.from({ length: 30 }, () => ({ name: 'n', value: 'v'.repeat(1000) })),
    });
    expect(embedLength(fitted)).toBeLessThanOrEqual(6000);
    expect(fitted.fields!.length).toBeLessThanOrEqual(25);
    expect(codePointLength(fitted.title!)).toBeLessThanOrEqual(256);
  });

  it('builds a page row with previous off on page 1 and next off without more', () => {
    const t = new Translations().for('en-US');
    const pager = { page: (page: number) => `mods:list:${page}~0`, label: 'mods:page-label~0' };
    const row = pageRow(t, { pager, page: 1, hasNext: false });
    const buttons = row!.components as Array<{ disabled?: boolean; custom_id: string }>;
    expect(buttons.map((b) => b.disabled)).toEqual([true, true, true]);
    expect(new Set(buttons.map((b) => b.custom_id)).size).toBe(3);
  });
});

describe('Responder', () => {
  function fakeInteraction() {
    return {
      isMessageComponent: () => false,
      ephemeral: false,
      deferReply: vi.fn(async (): Promise<unknown> => undefined),
      reply: vi.fn(async () => undefined),
      editReply: vi.fn(async () => undefined),
      followUp: vi.fn(async () => undefined),
      deleteReply: vi.fn(async () => undefined),
    };
  }

  it('defers once for concurrent loads, then edits the deferred reply', async () => {
    const interaction = fakeInteraction();
    // Discord has not answered the first defer yet when the other two ask.
    let answer: (value: unknown) => void = () => undefined;
    interaction.deferReply.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const responder = new Responder(interaction as unknown as AnswerableInteraction);
    const defers = Promise.all([responder.defer(), responder.defer(), responder.defer()]);
    await Promise.resolve();
    answer(undefined);
    await defers;
    await responder.send({ content: 'done' });
    expect(interaction.deferReply).toHaveBeenCalledTimes(1);
    expect(interaction.editReply).toHaveBeenCalledTimes(1);
    expect(interaction.reply).not.toHaveBeenCalled();
  });

  it('does not defer while its reply is on the way (a slow upload is not undone by the watchdog)', async () => {
    const interaction = fakeInteraction();
    let delivered: (value: undefined) => void = () => undefined;
    interaction.reply.mockImplementationOnce(() => new Promise((resolve) => (delivered = resolve)));
    const responder = new Responder(interaction as unknown as AnswerableInteraction);
    const sent = responder.send({ content: 'a chart' });
    await Promise.resolve();
    expect(responder.responding).toBe(true);
    await responder.defer();
    expect(interaction.deferReply).not.toHaveBeenCalled();
    delivered(undefined);
    await sent;
    expect(responder.responding).toBe(false);
    expect(responder.answered).toBe(true);
    expect(interaction.reply).toHaveBeenCalledTimes(1);
  });

  it('does not defer while its error reply is on the way either', async () => {
    const interaction = fakeInteraction();
    let delivered: (value: undefined) => void = () => undefined;
    interaction.reply.mockImplementationOnce(() => new Promise((resolve) => (delivered = resolve)));
    const responder = new Responder(interaction as unknown as AnswerableInteraction);
    const failed = responder.fail({ content: 'nope' });
    await Promise.resolve();
    await responder.defer();
    expect(interaction.deferReply).not.toHaveBeenCalled();
    delivered(undefined);
    await failed;
    expect(responder.answered).toBe(true);
  });

  it('turns an error after a public defer into a private follow-up', async () => {
    const interaction = fakeInteraction();
    const responder = new Responder(interaction as unknown as AnswerableInteraction);
    await responder.defer();
    await responder.fail({ content: 'nope' });
    expect(interaction.deleteReply).toHaveBeenCalledTimes(1);
    expect(interaction.followUp).toHaveBeenCalledWith(
      expect.objectContaining({ flags: 64, content: 'nope' }),
    );
  });

  it('replies privately to an error before anything was sent', async () => {
    const interaction = fakeInteraction();
    const responder = new Responder(interaction as unknown as AnswerableInteraction);
    await responder.fail({ content: 'nope' });
    expect(interaction.reply).toHaveBeenCalledWith(
      expect.objectContaining({ flags: 64, allowedMentions: { parse: [] } }),
    );
  });
});

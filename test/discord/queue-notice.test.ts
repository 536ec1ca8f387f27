import { describe, expect, it, vi } from 'vitest';
import { NoticePacer, QueueNotice, TOKEN_LIFE_MS, EDIT_MARGIN_MS } from '../../src/discord/queue-notice.ts';
import { Responder, type AnswerableInteraction } from '../../src/discord/responder.ts';
import { Translations, type Translator } from '../../src/i18n/index.ts';
import type { ReplyPayload } from '../../src/render/payload.ts';
import { flush, ManualClock } from '../support/clock.ts';

/**
 * The deferred reply of a command waiting in the queue for the game API: its position and estimate,
 * edited at a bounded rate as the queue moves, then replaced by the answer.
 */
const t = new Translations().for('en-US');

function fakeInteraction() {
  return {
    isMessageComponent: () => false,
    ephemeral: false,
    deferReply: vi.fn(async (): Promise<unknown> => undefined),
    reply: vi.fn(async () => undefined),
    editReply: vi.fn(async (_options: unknown) => undefined),
    followUp: vi.fn(async () => undefined),
    deleteReply: vi.fn(async () => undefined),
  };
}

function setup(options: { pacer?: NoticePacer; show?: (payload: ReplyPayload) => Promise<void> } = {}) {
  const clock = new ManualClock();
  const shown: ReplyPayload[] = [];
  const notice = new QueueNotice({
    clock,
    t,
    show:
      options.show ??
      (async (payload) => {
        shown.push(payload);
      }),
    pacer: options.pacer ?? new NoticePacer(),
    receivedAt: clock.now(),
    owner: { guild: 'g', user: 'u' },
  });
  return { clock, shown, notice };
}

const describedBy = (payload: ReplyPayload | undefined) => payload?.embeds?.[0]?.description ?? '';

describe('QueueNotice', () => {
  it('waits until the token ends, less the margin for the edit', () => {
    const { clock, notice } = setup();
    const call = notice.callOptions();
    expect(call.deadlineMs).toBe(TOKEN_LIFE_MS - EDIT_MARGIN_MS);
    expect(call.queue?.owner).toEqual({ guild: 'g', user: 'u' });
    expect(notice.deadline).toBe(clock.now() + TOKEN_LIFE_MS - EDIT_MARGIN_MS);
  });

  it('shows the position and estimate, edited at most every 10 s and only when they change', async () => {
    const { clock, shown, notice } = setup();
    const { queue } = notice.callOptions();
    const at = (seconds: number) => clock.now() + seconds * 1_000;
    // A short wait shows nothing: "thinking…" says enough.
    queue?.onQueued?.({ position: 2, startsAt: at(2) });
    await flush();
    expect(shown).toHaveLength(0);
    queue?.onQueued?.({ position: 40, startsAt: at(40) });
    await flush();
    expect(shown).toHaveLength(1);
    const eta = `<t:${Math.ceil(at(40) / 1_000)}:R>`;
    expect(describedBy(shown[0])).toContain('number 40 in the queue');
    expect(describedBy(shown[0])).toContain(eta);
    // The queue moves every second; the reply changes once every 10 s.
    for (let step = 1; step <= 25; step += 1) {
      await clock.advance(1_000);
      queue?.onQueued?.({ position: 40 - step, startsAt: at(40 - step) });
      await flush();
    }
    expect(shown.map(describedBy).map((text) => /number (\d+)/.exec(text)?.[1])).toEqual(['40', '30', '20']);
    // A change shows once its 10 s are up; asked again unchanged, or later with the same place, no edit.
    await clock.advance(30_000);
    queue?.onQueued?.({ position: 15, startsAt: at(0) });
    queue?.onQueued?.({ position: 15, startsAt: at(0) });
    await flush();
    expect(shown).toHaveLength(4);
    await clock.advance(30_000);
    queue?.onQueued?.({ position: 15, startsAt: at(-30) });
    await flush();
    expect(shown).toHaveLength(4);
    notice.close();
    await clock.advance(30_000);
    queue?.onQueued?.({ position: 1, startsAt: at(1) });
    await flush();
    expect(shown).toHaveLength(4);
  });

  it('keeps all notices together within the pacer: a notice without room skips that step', async () => {
    const pacer = new NoticePacer(1);
    const a = setup({ pacer });
    const b = setup({ pacer });
    const place = { position: 9, startsAt: a.clock.now() + 60_000 };
    a.notice.callOptions().queue?.onQueued?.(place);
    b.notice.callOptions().queue?.onQueued?.(place);
    await flush();
    expect([a.shown.length, b.shown.length]).toEqual([1, 0]);
  });

  it('translates nothing for a move of the queue that it does not show (every waiter hears every move)', async () => {
    const pacer = new NoticePacer(1);
    const clock = new ManualClock();
    const translated: string[] = [];
    const counting: Translator = {
      ...t,
      t: (key: string, vars?: Record<string, unknown>) => {
        translated.push(key);
        return t.t(key, vars);
      },
    };
    const notices = Array.from({ length: 50 }, () => {
      const shown: ReplyPayload[] = [];
      const notice = new QueueNotice({
        clock,
        t: counting,
        show: async (payload) => {
          shown.push(payload);
        },
        pacer,
        receivedAt: clock.now(),
        owner: { guild: 'g', user: 'u' },
      });
      return { shown, queue: notice.callOptions().queue };
    });
    // The pacer has room for one edit this second: one notice shows, 49 skip the step untranslated.
    notices.forEach(({ queue }, i) => queue?.onQueued?.({ position: i + 1, startsAt: clock.now() + 60_000 }));
    await flush();
    expect(notices.filter(({ shown }) => shown.length > 0)).toHaveLength(1);
    expect(translated).toEqual(['common:errors.queuedTitle', 'common:errors.queued']);
    expect(describedBy(notices[0]?.shown[0])).toContain('number 1 in the queue');
  });

  it('is written in every locale', () => {
    for (const locale of ['de', 'en-US', 'es-ES', 'fr', 'pl', 'pt-BR', 'ru', 'tr'] as const) {
      const text = new Translations()
        .for(locale)
        .t('common:errors.queued', { position: '7', eta: '<t:1:R>' });
      expect(text).toContain('7');
      expect(text).toContain('<t:1:R>');
      expect(text).not.toContain('errors.queued');
    }
  });
});

describe('Responder.progress', () => {
  it('edits the deferred reply, and the answer replaces it last, even with an edit still on its way', async () => {
    const interaction = fakeInteraction();
    const responder = new Responder(interaction as unknown as AnswerableInteraction);
    await responder.defer();
    let finish: () => void = () => undefined;
    interaction.editReply.mockImplementationOnce(
      () => new Promise<undefined>((resolve) => (finish = () => resolve(undefined))),
    );
    const progress = responder.progress({ content: 'number 5 in the queue' });
    await flush();
    const answer = responder.send({ content: 'the answer' });
    // Asked while the answer is on its way: never shown.
    await responder.progress({ content: 'number 4 in the queue' });
    await flush();
    expect(interaction.editReply).toHaveBeenCalledTimes(1);
    finish();
    await Promise.all([progress, answer]);
    const contents = interaction.editReply.mock.calls.map(
      ([options]) => (options as { content?: string }).content,
    );
    expect(contents).toEqual(['number 5 in the queue', 'the answer']);
  });

  it('leaves a clicked message as it is, and does nothing before a defer', async () => {
    const clicked = {
      ...fakeInteraction(),
      isMessageComponent: () => true,
      deferUpdate: vi.fn(async () => undefined),
    };
    const responder = new Responder(clicked as unknown as AnswerableInteraction);
    await responder.progress({ content: 'number 3 in the queue' });
    await responder.defer();
    await responder.progress({ content: 'number 3 in the queue' });
    expect(clicked.editReply).not.toHaveBeenCalled();
  });
});

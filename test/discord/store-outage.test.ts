import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import type { Command } from '../../src/discord/command.ts';
import type { Services } from '../../src/services.ts';
import { InteractionRouter } from '../../src/discord/interactions.ts';
import { Responder, type AnswerableInteraction } from '../../src/discord/responder.ts';
import { Translations } from '../../src/i18n/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { StoreError } from '../../src/store/index.ts';
import { ManualClock, flush } from '../support/clock.ts';

/**
 * The command path while the store hangs or fails: the interaction is deferred before Discord's 3 s,
 * a cache peek that hangs gives way to a defer, and a store failure reads as such, never as "Something
 * went wrong" and never as silence. A manual clock stands in for the router's timers.
 */
const DEFER_AFTER = 1_500;
const PEEK = 500;
const EPHEMERAL = 64;
const storeText = new Translations().for('en-US').t('common:errors.storeDown');

function fakeInteraction(kind: 'command' | 'autocomplete' = 'command') {
  return {
    id: '1',
    locale: 'en-US',
    guildLocale: null,
    guildId: null,
    user: { id: '9' },
    commandName: 'probe',
    ephemeral: false,
    options: {
      getSubcommand: () => null,
      getSubcommandGroup: () => null,
      get: () => null,
      getFocused: () => ({ name: 'name', value: 'Sni' }),
    },
    isAutocomplete: () => kind === 'autocomplete',
    isChatInputCommand: () => kind === 'command',
    isButton: () => false,
    isStringSelectMenu: () => false,
    isModalSubmit: () => false,
    isMessageComponent: () => false,
    deferReply: vi.fn(async (_options?: unknown) => undefined),
    reply: vi.fn(async (_options?: unknown) => undefined),
    editReply: vi.fn(async (_options?: unknown) => undefined),
    followUp: vi.fn(async (_options?: unknown) => undefined),
    deleteReply: vi.fn(async () => undefined),
    respond: vi.fn(async () => undefined),
  };
}
type FakeInteraction = ReturnType<typeof fakeInteraction>;

function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}

function setup(
  command: Partial<Command>,
  api: {
    peek?: () => Promise<unknown>;
    peekMemory?: () => { value: unknown } | undefined;
    call?: () => Promise<unknown>;
  } = {},
) {
  const clock = new ManualClock();
  const services = {
    api: {
      peek: api.peek ?? (() => Promise.resolve(undefined)),
      // The process memory knows nothing here unless told: the store is asked.
      peekMemory: api.peekMemory ?? (() => undefined),
      call: api.call ?? (() => Promise.resolve('data')),
    },
    translations: new Translations(),
    clock,
    log: createLogger({ level: 'silent' }),
  } as unknown as Services;
  const full = { data: { name: 'probe' }, execute: async () => undefined, ...command };
  const router = new InteractionRouter([full], services, {
    deferAfterMs: DEFER_AFTER,
    peekTimeoutMs: PEEK,
    sleep: (ms, signal) => clock.sleep(ms, signal),
    completers: {},
  });
  const run = async (interaction: FakeInteraction) => {
    router.handle(interaction as never);
    await flush();
  };
  return { clock, router, run };
}

function sentText(mock: FakeInteraction['reply']): string {
  return JSON.stringify(mock.mock.calls);
}

describe('a handler stuck on the store', () => {
  it('is deferred before the deadline, then told that the storage is not answering', async () => {
    let fail: (error: unknown) => void = () => undefined;
    const { clock, run, router } = setup({
      execute: () => new Promise<void>((_, reject) => (fail = reject)),
    });
    const interaction = fakeInteraction();
    await run(interaction);
    expect(interaction.deferReply).not.toHaveBeenCalled();
    await clock.advance(DEFER_AFTER);
    expect(interaction.deferReply).toHaveBeenCalledTimes(1);

    fail(new StoreError('the store did not answer within 2000 ms (read)'));
    await router.drain(1_000);
    expect(interaction.followUp).toHaveBeenCalledTimes(1);
    const text = sentText(interaction.followUp);
    expect(text).toContain(storeText);
    expect(text).not.toContain('Something went wrong');
    expect(interaction.followUp.mock.calls[0]?.[0]).toMatchObject({ flags: EPHEMERAL });
  });

  it('answers a store failure at once with the storage message, not an incident', async () => {
    const { run, router } = setup({
      execute: () => Promise.reject(new StoreError('the store failed (read): ECONNREFUSED')),
    });
    const interaction = fakeInteraction();
    await run(interaction);
    await router.drain(1_000);
    expect(interaction.reply).toHaveBeenCalledTimes(1);
    expect(sentText(interaction.reply)).toContain(storeText);
    expect(sentText(interaction.reply)).not.toContain('incident');
  });

  it('keeps an ephemeral answer private after the public defer', async () => {
    let release: () => void = () => undefined;
    const { clock, run, router } = setup({
      async execute(ctx) {
        await new Promise<void>((resolve) => (release = resolve));
        await ctx.send({ ephemeral: true, content: 'only for you' });
      },
    });
    const interaction = fakeInteraction();
    await run(interaction);
    await clock.advance(DEFER_AFTER);
    release();
    await router.drain(1_000);
    expect(interaction.editReply).not.toHaveBeenCalled();
    expect(interaction.deleteReply).toHaveBeenCalledTimes(1);
    expect(interaction.followUp).toHaveBeenCalledWith(
      expect.objectContaining({ content: 'only for you', flags: EPHEMERAL }),
    );
  });
});

describe('load while the cache read hangs or fails', () => {
  it('defers after the peek timeout and calls the API', async () => {
    const call = vi.fn(() => Promise.resolve('fresh data'));
    const { clock, run, router } = setup(
      {
        async execute(ctx) {
          const value = await ctx.load('officialMaps' as never, {} as never);
          await ctx.send({ content: String(value) });
        },
      },
      { peek: never, call },
    );
    const interaction = fakeInteraction();
    await run(interaction);
    expect(interaction.deferReply).not.toHaveBeenCalled();
    await clock.advance(PEEK);
    await router.drain(1_000);
    expect(interaction.deferReply).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledTimes(1);
    expect(interaction.editReply).toHaveBeenCalledWith(expect.objectContaining({ content: 'fresh data' }));
  });

  it('treats a failed peek as a miss: defers and calls the API', async () => {
    const { run, router } = setup(
      {
        async execute(ctx) {
          const value = await ctx.load('officialMaps' as never, {} as never);
          await ctx.send({ content: String(value) });
        },
      },
      { peek: () => Promise.reject(new StoreError('the store failed (read): ClientOfflineError')) },
    );
    const interaction = fakeInteraction();
    await run(interaction);
    await router.drain(1_000);
    expect(interaction.deferReply).toHaveBeenCalledTimes(1);
    expect(interaction.editReply).toHaveBeenCalledWith(expect.objectContaining({ content: 'data' }));
  });
});

describe('load of a reply the process memory holds', () => {
  it('answers with it at once, asking neither the hanging store nor the API, and arms no timer', async () => {
    const call = vi.fn(() => Promise.resolve('fresh data'));
    const peek = vi.fn(never);
    const { clock, run, router } = setup(
      {
        async execute(ctx) {
          const value = await ctx.load('officialMaps' as never, {} as never);
          await ctx.send({ content: String(value) });
        },
      },
      { peek, peekMemory: () => ({ value: 'kept in memory' }), call },
    );
    const interaction = fakeInteraction();
    await run(interaction);
    expect(interaction.reply).toHaveBeenCalledWith(expect.objectContaining({ content: 'kept in memory' }));
    // No timer is left: the watchdog ended with the interaction, and the peek armed none.
    expect(clock.sleepers).toBe(0);
    await router.drain(1_000);
    expect(interaction.deferReply).not.toHaveBeenCalled();
    expect(peek).not.toHaveBeenCalled();
    expect(call).not.toHaveBeenCalled();
  });

  it('treats what the memory knows is no longer fresh as a miss, without waiting for the store', async () => {
    const peek = vi.fn(never);
    const { run, router } = setup(
      {
        async execute(ctx) {
          const value = await ctx.load('officialMaps' as never, {} as never);
          await ctx.send({ content: String(value) });
        },
      },
      { peek, peekMemory: () => ({ value: undefined }) },
    );
    const interaction = fakeInteraction();
    await run(interaction);
    await router.drain(1_000);
    expect(peek).not.toHaveBeenCalled();
    expect(interaction.deferReply).toHaveBeenCalledTimes(1);
    expect(interaction.editReply).toHaveBeenCalledWith(expect.objectContaining({ content: 'data' }));
  });
});

describe('autocomplete stuck on the store', () => {
  it('answers with no choices before the deadline', async () => {
    const { clock, run } = setup({
      data: {
        name: 'probe',
        options: [{ type: ApplicationCommandOptionType.String, name: 'name', autocomplete: never }],
      },
    });
    const interaction = fakeInteraction('autocomplete');
    await run(interaction);
    expect(interaction.respond).not.toHaveBeenCalled();
    await clock.advance(DEFER_AFTER);
    expect(interaction.respond).toHaveBeenCalledWith([]);
  });
});

describe('Responder', () => {
  it('sends an ephemeral answer after a public defer as a private follow-up', async () => {
    const interaction = fakeInteraction();
    const responder = new Responder(interaction as unknown as AnswerableInteraction);
    await responder.defer();
    await responder.send({ ephemeral: true, content: 'secret code' });
    expect(interaction.editReply).not.toHaveBeenCalled();
    expect(interaction.deleteReply).toHaveBeenCalledTimes(1);
    expect(interaction.followUp).toHaveBeenCalledWith(
      expect.objectContaining({ content: 'secret code', flags: EPHEMERAL }),
    );
  });

  it('edits an ephemeral defer in place', async () => {
    const interaction = fakeInteraction();
    const responder = new Responder(interaction as unknown as AnswerableInteraction);
    await responder.defer({ ephemeral: true });
    await responder.send({ ephemeral: true, content: 'secret code' });
    expect(interaction.editReply).toHaveBeenCalledTimes(1);
    expect(interaction.followUp).not.toHaveBeenCalled();
  });
});

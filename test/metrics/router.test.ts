import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../../src/api/errors.ts';
import { UserError } from '../../src/core/user-error.ts';
import type { Command } from '../../src/discord/command.ts';
import { encodeComponentId } from '../../src/discord/component-id.ts';
import { InteractionRouter } from '../../src/discord/interactions.ts';
import { Translations } from '../../src/i18n/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { createMetrics } from '../../src/metrics/index.ts';
import type { Services } from '../../src/services.ts';
import { StoreError } from '../../src/store/index.ts';
import { ManualClock, flush } from '../support/clock.ts';
import { labelValues, parsePrometheus, valueOf } from '../support/prometheus.ts';

/**
 * The interaction router tells the metrics each interaction's command, kind, outcome and duration. Driven
 * with stand-in interactions and a manual clock (the same way as test/discord/store-outage.test.ts), so
 * every outcome is reached on purpose and every duration is exact.
 */
const DEFER_AFTER = 1_500;

interface FakeOptions {
  readonly kind?: 'command' | 'autocomplete' | 'button' | 'modal';
  readonly commandName?: string;
  readonly customId?: string;
}

function fakeInteraction({ kind = 'command', commandName = 'probe', customId = '' }: FakeOptions = {}) {
  return {
    id: '1',
    locale: 'en-US',
    guildLocale: null,
    commandName,
    customId,
    ephemeral: false,
    options: {
      getSubcommand: () => null,
      getSubcommandGroup: () => null,
      get: () => null,
      getFocused: () => ({ name: 'name', value: 'Sni' }),
    },
    isAutocomplete: () => kind === 'autocomplete',
    isChatInputCommand: () => kind === 'command',
    isButton: () => kind === 'button',
    isStringSelectMenu: () => false,
    isModalSubmit: () => kind === 'modal',
    isMessageComponent: () => kind === 'button',
    deferReply: vi.fn(async () => undefined),
    deferUpdate: vi.fn(async () => undefined),
    reply: vi.fn(async () => undefined),
    update: vi.fn(async () => undefined),
    editReply: vi.fn(async () => undefined),
    followUp: vi.fn(async () => undefined),
    deleteReply: vi.fn(async () => undefined),
    respond: vi.fn(async () => undefined),
  };
}

function setup() {
  const clock = new ManualClock();
  const services = {
    api: {
      peek: () => Promise.resolve(undefined),
      peekMemory: () => undefined,
      call: () => Promise.resolve('data'),
    },
    translations: new Translations(),
    clock,
    log: createLogger({ level: 'silent' }),
  } as unknown as Services;
  /** Answers after `ms` of (manual) time. */
  const answerAfter = (ms: number) => async (ctx: { send(payload: { content: string }): Promise<void> }) => {
    clock.set(clock.now() + ms);
    await ctx.send({ content: 'done' });
  };
  const commands: Command[] = [
    {
      data: { name: 'probe' },
      execute: answerAfter(250),
      component: answerAfter(40),
      modal: answerAfter(10),
    },
    { data: { name: 'refuse' }, execute: () => Promise.reject(new UserError('common:errors.nameRequired')) },
    {
      data: { name: 'missing' },
      execute: () => Promise.reject(new NotFoundError('no such player', 'player')),
    },
    { data: { name: 'storage' }, execute: () => Promise.reject(new StoreError('the store did not answer')) },
    { data: { name: 'boom' }, execute: () => Promise.reject(new Error('bug')) },
    {
      data: {
        name: 'slow',
        options: [{ type: ApplicationCommandOptionType.String, name: 'name', autocomplete: 'player' }],
      },
      execute: answerAfter(0),
    },
  ] as unknown as Command[];
  const metrics = createMetrics({ defaultMetrics: false, clock });
  const router = new InteractionRouter(commands, services, {
    deferAfterMs: DEFER_AFTER,
    sleep: (ms, signal) => clock.sleep(ms, signal),
    metrics,
    completers: { player: () => new Promise(() => undefined) },
  });
  const run = async (options: FakeOptions = {}) => {
    router.handle(fakeInteraction(options) as never);
    await flush();
  };
  return { clock, metrics, router, run };
}

describe('commands through the router', () => {
  it('count by name and outcome, and their durations fill the histogram', async () => {
    const { metrics, router, run } = setup();
    const N = 7;
    for (let i = 0; i < N; i += 1) await run({ commandName: 'probe' });
    for (let i = 0; i < 2; i += 1) await run({ commandName: 'refuse' });
    await run({ commandName: 'missing' });
    await run({ commandName: 'storage' });
    await run({ commandName: 'boom' });
    await router.drain(1_000);
    const text = parsePrometheus(await metrics.text());

    const count = (command: string, outcome: string) =>
      valueOf(text, 'killfeed_commands_total', { command, kind: 'command', outcome });
    expect(count('probe', 'ok')).toBe(N);
    expect(count('refuse', 'user_error')).toBe(2);
    expect(count('missing', 'api_error')).toBe(1);
    expect(count('storage', 'store_down')).toBe(1);
    expect(count('boom', 'failed')).toBe(1);
    expect(count('probe', 'failed')).toBeUndefined();

    const probe = { command: 'probe', kind: 'command', outcome: 'ok' };
    expect(valueOf(text, 'killfeed_command_duration_seconds_count', probe)).toBe(N);
    expect(valueOf(text, 'killfeed_command_duration_seconds_sum', probe)).toBeCloseTo(N * 0.25);
    expect(valueOf(text, 'killfeed_command_duration_seconds_bucket', { ...probe, le: '0.1' })).toBe(0);
    expect(valueOf(text, 'killfeed_command_duration_seconds_bucket', { ...probe, le: '0.25' })).toBe(N);
    const all = text.samples.filter((s) => s.name === 'killfeed_command_duration_seconds_count');
    expect(all.reduce((sum, s) => sum + s.value, 0)).toBe(N + 5);
  });

  it('count buttons, modals and autocomplete by kind, with the autocomplete that ran out of time', async () => {
    const { clock, metrics, router, run } = setup();
    const expiresAt = clock.now() + 60_000;
    await run({ kind: 'button', customId: encodeComponentId('probe', 'page', [2], expiresAt)! });
    await run({ kind: 'modal', customId: encodeComponentId('probe', 'form', [], expiresAt)! });
    await run({ kind: 'button', customId: encodeComponentId('probe', 'page', [2], clock.now() - 60_000)! });
    await run({ kind: 'autocomplete', commandName: 'slow' });
    await clock.advance(DEFER_AFTER);
    await router.drain(1_000);
    const text = parsePrometheus(await metrics.text());
    expect(
      valueOf(text, 'killfeed_commands_total', { command: 'probe', kind: 'component', outcome: 'ok' }),
    ).toBe(1);
    expect(valueOf(text, 'killfeed_commands_total', { command: 'probe', kind: 'modal', outcome: 'ok' })).toBe(
      1,
    );
    expect(
      valueOf(text, 'killfeed_commands_total', {
        command: 'probe',
        kind: 'component',
        outcome: 'user_error',
      }),
    ).toBe(1);
    const autocomplete = { command: 'slow', kind: 'autocomplete', outcome: 'timeout' };
    expect(valueOf(text, 'killfeed_commands_total', autocomplete)).toBe(1);
    expect(valueOf(text, 'killfeed_command_duration_seconds_sum', autocomplete)).toBe(DEFER_AFTER / 1000);
  });

  it('label what the user sent that is no command of ours as `unknown`, never as the text itself', async () => {
    const { metrics, router, run } = setup();
    const crafted = 'xX_Sniper_Xx"} 1\nkillfeed_fake 9';
    await run({ commandName: crafted });
    await run({ kind: 'button', customId: `${crafted}:page:1~zz` });
    await router.drain(1_000);
    const raw = await metrics.text();
    const text = parsePrometheus(raw);
    expect(valueOf(text, 'killfeed_commands_total', { command: 'unknown', kind: 'command' })).toBe(1);
    expect(valueOf(text, 'killfeed_commands_total', { command: 'unknown', kind: 'component' })).toBe(1);
    expect(raw).not.toContain('Sniper');
    expect(labelValues(text)).not.toContain(crafted);
    expect(text.types.has('killfeed_fake')).toBe(false);
  });
});

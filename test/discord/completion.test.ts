import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it, vi } from 'vitest';
import type { Command, CommandSpec, Completer, CompletionContext } from '../../src/discord/command.ts';
import { completionProblems, type Completers } from '../../src/discord/completion.ts';
import { InteractionRouter } from '../../src/discord/interactions.ts';
import { loadCommands } from '../../src/discord/loader.ts';
import { localizeCommand } from '../../src/discord/localize.ts';
import { COMPLETION_KINDS, type CompletionKind, type OptionSpec } from '../../src/discord/spec.ts';
import { Translations } from '../../src/i18n/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { createMetrics } from '../../src/metrics/index.ts';
import type { Services } from '../../src/services.ts';
import { ManualClock, flush } from '../support/clock.ts';
import { parsePrometheus, valueOf } from '../support/prometheus.ts';

/**
 * Autocomplete declared on the option and dispatched by the router: the focused option of each kind
 * reaches its kind's completer (with what was typed), an option's own completer is its own, an option that
 * declares none (a stale definition) and a kind the router holds no completer for answer no choices, and
 * Discord's 3 s window is kept whatever a completer waits for. Stand-in interactions and a manual clock.
 */
const DEFER_AFTER = 1_500;
const S = ApplicationCommandOptionType.String;
const I = ApplicationCommandOptionType.Integer;
const SUB = ApplicationCommandOptionType.Subcommand;

const ownRecords = vi.fn<Completer>(async (ctx) => [{ name: `record ${ctx.typed}`, value: 'r1' }]);

/** A command with one subcommand per kind (its option named after the kind), and one with its own completer. */
const probe = {
  name: 'probe',
  options: [
    ...COMPLETION_KINDS.map((kind): OptionSpec => ({
      type: SUB,
      name: kind,
      options: [{ type: kind === 'skin' ? I : S, name: kind, autocomplete: kind }],
    })),
    { type: SUB, name: 'remove', options: [{ type: S, name: 'id', autocomplete: ownRecords }] },
    { type: SUB, name: 'stale', options: [{ type: S, name: 'plain' }] },
    {
      type: ApplicationCommandOptionType.SubcommandGroup,
      name: 'group',
      options: [{ type: SUB, name: 'inner', options: [{ type: S, name: 'who', autocomplete: 'clan' }] }],
    },
  ],
} satisfies CommandSpec;

interface Focus {
  readonly sub: string | null;
  readonly group?: string;
  readonly name: string;
  readonly value: string | number;
  readonly command?: string;
}

function fakeInteraction(focus: Focus) {
  return {
    id: '1',
    locale: 'en-US',
    guildLocale: null,
    commandName: focus.command ?? 'probe',
    guildId: 'g1',
    user: { id: 'u1' },
    options: {
      getSubcommand: () => focus.sub,
      getSubcommandGroup: () => focus.group ?? null,
      getFocused: () => ({ name: focus.name, value: focus.value }),
    },
    isAutocomplete: () => true,
    respond: vi.fn(async (_choices: unknown) => undefined),
  };
}

/** A completer per kind that answers one choice naming its kind and what was typed. */
function kindCompleters(): { completers: Completers; calls: Array<[CompletionKind, CompletionContext]> } {
  const calls: Array<[CompletionKind, CompletionContext]> = [];
  const completers = Object.fromEntries(
    COMPLETION_KINDS.map((kind) => [
      kind,
      (ctx: CompletionContext) => {
        calls.push([kind, ctx]);
        return Promise.resolve([{ name: `${kind}: ${ctx.typed}`, value: kind }]);
      },
    ]),
  ) as unknown as Completers;
  return { completers, calls };
}

function setup(
  completers: Partial<Completers>,
  commands: Command[] = [{ data: probe, execute: async () => {} }],
) {
  const clock = new ManualClock();
  const services = {
    translations: new Translations(),
    clock,
    log: createLogger({ level: 'silent' }),
  } as unknown as Services;
  const metrics = createMetrics({ defaultMetrics: false, clock });
  const router = new InteractionRouter(commands, services, {
    deferAfterMs: DEFER_AFTER,
    sleep: (ms, signal) => clock.sleep(ms, signal),
    metrics,
    completers,
  });
  const ask = async (focus: Focus) => {
    const interaction = fakeInteraction(focus);
    router.handle(interaction as never);
    await flush();
    return interaction;
  };
  const outcomes = async (outcome: string) =>
    valueOf(parsePrometheus(await metrics.text()), 'killfeed_commands_total', {
      command: 'probe',
      kind: 'autocomplete',
      outcome,
    });
  return { clock, router, ask, outcomes };
}

describe('autocomplete dispatched by the router', () => {
  it('sends the focused option of each kind to its kind’s completer, with what was typed', async () => {
    const { completers, calls } = kindCompleters();
    const { ask } = setup(completers);
    for (const kind of COMPLETION_KINDS) {
      const interaction = await ask({ sub: kind, name: kind, value: `typed ${kind}` });
      expect(interaction.respond).toHaveBeenCalledWith([{ name: `${kind}: typed ${kind}`, value: kind }]);
    }
    expect(calls.map(([kind]) => kind)).toEqual([...COMPLETION_KINDS]);
    const [, context] = calls[0]!;
    expect(context.typed).toBe('typed player');
    expect(context.interaction.user.id).toBe('u1');
    expect(context.t.t('common:errors.expired')).toBeTruthy();
  });

  it('finds the option in a subcommand group, and reads a number typed in an integer option as text', async () => {
    const { completers, calls } = kindCompleters();
    const { ask } = setup(completers);
    await ask({ group: 'group', sub: 'inner', name: 'who', value: 'Red' });
    await ask({ sub: 'skin', name: 'skin', value: 31 });
    expect(calls.map(([kind, ctx]) => [kind, ctx.typed])).toEqual([
      ['clan', 'Red'],
      ['skin', '31'],
    ]);
  });

  it('asks an option’s own completer, not a kind’s', async () => {
    const { completers, calls } = kindCompleters();
    const { ask } = setup(completers);
    const interaction = await ask({ sub: 'remove', name: 'id', value: 'ab' });
    expect(ownRecords).toHaveBeenCalledTimes(1);
    expect(calls).toEqual([]);
    expect(interaction.respond).toHaveBeenCalledWith([{ name: 'record ab', value: 'r1' }]);
  });

  it('answers no choices for an option that declares no completion, or that the definition lacks', async () => {
    const { completers, calls } = kindCompleters();
    const { ask, outcomes } = setup(completers);
    const stale = await ask({ sub: 'stale', name: 'plain', value: 'x' });
    const missing = await ask({ sub: 'player', name: 'nobody', value: 'x' });
    expect(stale.respond).toHaveBeenCalledWith([]);
    expect(missing.respond).toHaveBeenCalledWith([]);
    expect(calls).toEqual([]);
    expect(await outcomes('ok')).toBe(2);
  });

  it('answers no choices, counted as a failure, for a kind the router holds no completer for', async () => {
    const { completers } = kindCompleters();
    const { map: _map, ...withoutMaps } = completers;
    const { ask, outcomes } = setup(withoutMaps);
    const interaction = await ask({ sub: 'map', name: 'map', value: 'Dust' });
    expect(interaction.respond).toHaveBeenCalledWith([]);
    expect(await outcomes('failed')).toBe(1);
  });

  it('answers no choices for a command it does not know', async () => {
    const { completers, calls } = kindCompleters();
    const { ask } = setup(completers);
    const interaction = await ask({ command: 'nothing', sub: 'player', name: 'player', value: 'x' });
    expect(interaction.respond).toHaveBeenCalledWith([]);
    expect(calls).toEqual([]);
  });

  it('keeps to Discord’s window: a completer answering in time is heard, a slower one gets no choices', async () => {
    let release: (() => void) | undefined;
    const slow = (ctx: CompletionContext) =>
      new Promise<Array<{ name: string; value: string }>>((resolve) => {
        release = () => resolve([{ name: ctx.typed, value: ctx.typed }]);
      });
    const { clock, ask, outcomes } = setup({ player: slow });
    const inTime = await ask({ sub: 'player', name: 'player', value: 'early' });
    await clock.advance(DEFER_AFTER - 1);
    release?.();
    await flush();
    expect(inTime.respond).toHaveBeenCalledWith([{ name: 'early', value: 'early' }]);

    const late = await ask({ sub: 'player', name: 'player', value: 'late' });
    await clock.advance(DEFER_AFTER - 1);
    expect(late.respond).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(late.respond).toHaveBeenCalledWith([]);
    release?.();
    await flush();
    expect(late.respond).toHaveBeenCalledTimes(1);
    expect(await outcomes('timeout')).toBe(1);
  });

  it('cuts the choices to Discord’s 25, each name to 100 characters', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ name: `${'n'.repeat(150)}${i}`, value: String(i) }));
    const { ask } = setup({ player: () => Promise.resolve(many) });
    const interaction = await ask({ sub: 'player', name: 'player', value: 'n' });
    const sent = interaction.respond.mock.calls[0]?.[0] as Array<{ name: string; value: string }>;
    expect(sent).toHaveLength(25);
    expect(Math.max(...sent.map((choice) => [...choice.name].length))).toBeLessThanOrEqual(100);
  });
});

describe('completions in definitions', () => {
  it('go to Discord as `autocomplete: true`, whether a kind or an own completer', () => {
    const json = localizeCommand(
      {
        name: 'probe',
        options: [
          { type: S, name: 'id', autocomplete: ownRecords },
          { type: S, name: 'plain' },
        ],
      },
      'probe',
      {
        everyLocale: (key: string) => ({ 'en-US': key }),
      } as unknown as Translations,
    );
    expect(json.options).toEqual([
      expect.objectContaining({ name: 'id', autocomplete: true }),
      expect.not.objectContaining({ autocomplete: expect.anything() }),
    ]);
  });

  it('are refused for an unknown kind, an option type Discord does not complete, or beside choices', () => {
    const bad = {
      name: 'bad',
      options: [
        {
          type: SUB,
          name: 'sub',
          options: [
            { type: S, name: 'weapon', autocomplete: 'weapon' as CompletionKind },
            { type: ApplicationCommandOptionType.Boolean, name: 'flag', autocomplete: 'player' } as never,
            { type: S, name: 'both', autocomplete: 'map', choices: [{ value: 'a' }] },
          ],
        },
      ],
    } satisfies CommandSpec;
    expect(completionProblems(bad)).toEqual([
      'option sub.weapon completes an unknown kind "weapon"',
      'option sub.flag of type 5 cannot complete',
      'option sub.both has both choices and autocomplete',
    ]);
    expect(completionProblems(probe)).toEqual([]);
  });

  it('of every command: each option that completes declares a kind or its own completer, sent as `true`', async () => {
    const commands = await loadCommands(new Translations());
    const declared: string[] = [];
    const sent: string[] = [];
    const walk = (options: readonly unknown[] | undefined, path: string, into: string[], wire: boolean) => {
      for (const option of (options ?? []) as Array<{
        name: string;
        autocomplete?: unknown;
        options?: unknown[];
      }>) {
        if (option.autocomplete !== undefined) {
          into.push(`${path}${option.name}`);
          if (wire) expect(option.autocomplete, `${path}${option.name}`).toBe(true);
          else expect(['function', 'string']).toContain(typeof option.autocomplete);
        }
        walk(option.options, `${path}${option.name}.`, into, wire);
      }
    };
    for (const command of commands) {
      walk(command.data.options, `${command.data.name} `, declared, false);
      walk(command.json.options, `${command.data.name} `, sent, true);
    }
    expect(sent).toEqual(declared);
    expect(declared).toContain('player profile.name');
    expect(declared).toContain('unsubscribe id');
    expect(declared).toContain('subscribe turf.clan');
  });
});

import type { APIApplicationCommandInteractionDataOption } from 'discord.js';
import type { CommandStore } from '../commands.ts';
import { nextSnowflake } from '../snowflake.ts';
import { isRecord, type DiscordState } from '../state.ts';
import type { InvokeCommandOptions } from '../types.ts';
import type { InteractionContext } from './interaction.ts';
import { resolveValues } from './resolved.ts';

/** The `data` of a slash command or autocomplete interaction, with the ids its options name resolved. */
export function commandData(
  world: DiscordState,
  commands: CommandStore,
  context: InteractionContext,
  opts: InvokeCommandOptions,
  options: readonly unknown[],
): Record<string, unknown> {
  const registered = commands.find(opts.name, context.guild?.id ?? null);
  const data: Record<string, unknown> = {
    id: registered?.id ?? nextSnowflake(),
    name: opts.name,
    type: 1,
    ...(registered?.guild_id ? { guild_id: registered.guild_id } : {}),
  };
  if (options.length > 0) data.options = options;
  const resolved = resolveValues(
    world,
    context.guild,
    optionValues(options as APIApplicationCommandInteractionDataOption[]),
  );
  if (resolved) data.resolved = resolved;
  return data;
}

function optionValues(
  options: readonly APIApplicationCommandInteractionDataOption[],
): Array<{ type: number; value: string }> {
  return options.flatMap((option) => {
    if ('options' in option && Array.isArray(option.options)) {
      return optionValues(option.options);
    }
    return 'value' in option && typeof option.value === 'string'
      ? [{ type: option.type, value: option.value }]
      : [];
  });
}

export function countFocused(options: readonly unknown[]): number {
  let count = 0;
  for (const option of options) {
    if (!isRecord(option)) continue;
    if (option.focused === true) count += 1;
    if (Array.isArray(option.options)) count += countFocused(option.options as unknown[]);
  }
  return count;
}

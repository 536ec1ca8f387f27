import {
  ApplicationCommandOptionType,
  type Attachment,
  type CommandInteractionOption,
  type CommandInteractionOptionResolver,
  type User,
} from 'discord.js';
import type { CommandSpec, OptionSpec } from './spec.ts';

/**
 * A command's arguments, typed from its own definition (written `as const satisfies CommandSpec`): a
 * command with subcommands gets a union discriminated by `subcommand` (and `group`), so a handler that
 * names an option its definition lacks does not compile.
 */
type Simplify<T> = { [K in keyof T]: T[K] };

/** The arguments of a command (or subcommand) without options. */
type NoArgs = object;

type Channel = NonNullable<CommandInteractionOption['channel']>;
type Role = NonNullable<CommandInteractionOption['role']>;

type ValueOf<O> = O extends { readonly type: ApplicationCommandOptionType.String }
  ? string
  : O extends { readonly type: ApplicationCommandOptionType.Integer | ApplicationCommandOptionType.Number }
    ? number
    : O extends { readonly type: ApplicationCommandOptionType.Boolean }
      ? boolean
      : O extends { readonly type: ApplicationCommandOptionType.User }
        ? User
        : O extends { readonly type: ApplicationCommandOptionType.Channel }
          ? Channel
          : O extends { readonly type: ApplicationCommandOptionType.Role }
            ? Role
            : O extends { readonly type: ApplicationCommandOptionType.Mentionable }
              ? User | Role
              : O extends { readonly type: ApplicationCommandOptionType.Attachment }
                ? Attachment
                : never;

type Required<O> = O extends { readonly required: true } ? true : false;

/** The values of a list of (non-subcommand) options: required ones always there, others optional. */
export type OptionArgs<Os> = Os extends readonly unknown[]
  ? Simplify<
      { readonly [O in Os[number] as Required<O> extends true ? NameOf<O> : never]: ValueOf<O> } & {
        readonly [O in Os[number] as Required<O> extends true ? never : NameOf<O>]?: ValueOf<O>;
      }
    >
  : NoArgs;

type NameOf<O> = O extends { readonly name: infer N extends string } ? N : never;

type SubcommandArgs<O, Extra = NoArgs> = O extends {
  readonly type: ApplicationCommandOptionType.Subcommand;
  readonly name: infer N;
}
  ? Simplify<
      Extra & { readonly subcommand: N } & OptionArgs<O extends { readonly options: infer Os } ? Os : []>
    >
  : never;

type GroupArgs<O> = O extends {
  readonly type: ApplicationCommandOptionType.SubcommandGroup;
  readonly name: infer G;
  readonly options: infer Subs extends readonly unknown[];
}
  ? SubcommandArgs<Subs[number], { readonly group: G }>
  : never;

type Nested = {
  readonly type: ApplicationCommandOptionType.Subcommand | ApplicationCommandOptionType.SubcommandGroup;
};

/**
 * The arguments of a command whose definition is not a literal (`Command` without a type argument):
 * unknown, so that any command's context can go where a plain `CommandContext` is expected.
 */
export type LooseArgs = unknown;

export type ArgsOf<D extends CommandSpec> = string extends D['name']
  ? LooseArgs
  : D extends { readonly options: infer Os extends readonly unknown[] }
    ? [Extract<Os[number], Nested>] extends [never]
      ? OptionArgs<Os>
      : SubcommandArgs<Os[number]> | GroupArgs<Os[number]>
    : NoArgs;

/** The arguments of one subcommand: `SubArgs<typeof data, 'matches'>`. */
export type SubArgs<D extends CommandSpec, S extends string> = Extract<ArgsOf<D>, { readonly subcommand: S }>;

type OptionReader = Pick<CommandInteractionOptionResolver, 'get' | 'getSubcommand' | 'getSubcommandGroup'>;

/** Which subcommand (of which group) was invoked: what a command and an autocomplete interaction share. */
export interface SubcommandReader {
  getSubcommand(required: false): string | null;
  getSubcommandGroup(required: false): string | null;
}

const T = ApplicationCommandOptionType;

function valueOf(option: CommandInteractionOption, spec: OptionSpec): unknown {
  switch (spec.type) {
    case T.String:
      return typeof option.value === 'string' ? option.value : undefined;
    case T.Integer:
    case T.Number:
      return typeof option.value === 'number' ? option.value : undefined;
    case T.Boolean:
      return typeof option.value === 'boolean' ? option.value : undefined;
    case T.User:
      return option.user;
    case T.Channel:
      return option.channel ?? undefined;
    case T.Role:
      return option.role ?? undefined;
    case T.Mentionable:
      return option.user ?? option.role ?? undefined;
    case T.Attachment:
      return option.attachment;
    default:
      return undefined;
  }
}

/**
 * Reads the options of the invoked subcommand (of its group) into a plain object, as {@link ArgsOf}
 * types it. A value of another type than the definition says, or a required option missing, means the
 * deployed definition is stale: that throws, as discord.js's own getters do.
 */
export function readArgs<D extends CommandSpec>(options: OptionReader, data: D): ArgsOf<D> {
  const { group, subcommand, specs } = invokedOptions(options, data);
  const args: Record<string, unknown> = {};
  if (group !== null) args['group'] = group;
  if (subcommand !== null) args['subcommand'] = subcommand;
  Object.assign(args, readOptionArgs(options, specs));
  return args as ArgsOf<D>;
}

/**
 * The invoked group and subcommand, and the definitions of their options (the command's own when it has
 * no subcommands): what `readArgs` reads and what the router completes an option from.
 */
export function invokedOptions(
  options: SubcommandReader,
  data: CommandSpec,
): { group: string | null; subcommand: string | null; specs: readonly OptionSpec[] } {
  let specs: readonly OptionSpec[] = data.options ?? [];
  const group = options.getSubcommandGroup(false);
  if (group !== null) {
    specs = specs.find((s) => s.type === T.SubcommandGroup && s.name === group)?.options ?? [];
  }
  const subcommand = options.getSubcommand(false);
  if (subcommand !== null) {
    specs = specs.find((s) => s.type === T.Subcommand && s.name === subcommand)?.options ?? [];
  }
  return { group, subcommand, specs };
}

/** The values of these options (of the invoked subcommand), as {@link OptionArgs} types them. */
export function readOptionArgs<const Os extends readonly OptionSpec[]>(
  options: OptionReader,
  specs: Os,
): OptionArgs<Os> {
  const args: Record<string, unknown> = {};
  for (const spec of specs) {
    const option = options.get(spec.name);
    const value = option ? valueOf(option, spec) : undefined;
    if (option && value === undefined) {
      throw new TypeError(`Option "${spec.name}" is of type ${option.type}; expected ${spec.type}`);
    }
    if (value === undefined) {
      if (spec.required === true) throw new TypeError(`Option "${spec.name}" is required but absent`);
      continue;
    }
    args[spec.name] = value;
  }
  return args as OptionArgs<Os>;
}

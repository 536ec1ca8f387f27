import { ApplicationCommandOptionType as T, CommandInteractionOptionResolver, type Client } from 'discord.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { readArgs, type ArgsOf, type SubArgs } from '../../src/discord/args.ts';
import type { CommandSpec } from '../../src/discord/command.ts';

const data = {
  name: 'demo',
  options: [
    {
      type: T.Subcommand,
      name: 'find',
      options: [
        { type: T.String, name: 'name', required: true },
        { type: T.Integer, name: 'page', min_value: 1 },
        { type: T.Boolean, name: 'exact' },
      ],
    },
    {
      type: T.SubcommandGroup,
      name: 'admin',
      options: [{ type: T.Subcommand, name: 'kick', options: [{ type: T.Number, name: 'score' }] }],
    },
  ],
} as const satisfies CommandSpec;

const flat = {
  name: 'flat',
  options: [{ type: T.String, name: 'region', choices: [{ value: 'eu' }, { value: 'us' }] }],
} as const satisfies CommandSpec;

/** The options discord.js builds from an interaction's raw data. */
function resolver(options: readonly unknown[]): CommandInteractionOptionResolver {
  const Resolver = CommandInteractionOptionResolver as unknown as new (
    client: Client,
    options: readonly unknown[],
    resolved: object,
  ) => CommandInteractionOptionResolver;
  return new Resolver(null as unknown as Client, options, {});
}

describe('readArgs', () => {
  it('reads the invoked subcommand and its options into a plain object', () => {
    const options = resolver([
      {
        type: T.Subcommand,
        name: 'find',
        options: [
          { type: T.String, name: 'name', value: 'Ghost' },
          { type: T.Integer, name: 'page', value: 3 },
        ],
      },
    ]);
    expect(readArgs(options, data)).toEqual({ subcommand: 'find', name: 'Ghost', page: 3 });
  });

  it('reads a subcommand of a group, leaving absent options out', () => {
    const options = resolver([
      {
        type: T.SubcommandGroup,
        name: 'admin',
        options: [{ type: T.Subcommand, name: 'kick', options: [] }],
      },
    ]);
    expect(readArgs(options, data)).toEqual({ group: 'admin', subcommand: 'kick' });
  });

  it('reads top-level options of a command without subcommands', () => {
    expect(readArgs(resolver([{ type: T.String, name: 'region', value: 'eu' }]), flat)).toEqual({
      region: 'eu',
    });
    expect(readArgs(resolver([]), flat)).toEqual({});
  });

  it('refuses a value of another type than the definition says, and a missing required option', () => {
    const wrongType = resolver([
      { type: T.Subcommand, name: 'find', options: [{ type: T.String, name: 'name', value: 7 }] },
    ]);
    expect(() => readArgs(wrongType, data)).toThrow(/name/);
    const missing = resolver([{ type: T.Subcommand, name: 'find', options: [] }]);
    expect(() => readArgs(missing, data)).toThrow(/name/);
  });

  it('types the arguments from the definition', () => {
    type Args = ArgsOf<typeof data>;
    expectTypeOf<SubArgs<typeof data, 'find'>>().toEqualTypeOf<{
      readonly subcommand: 'find';
      readonly name: string;
      readonly page?: number;
      readonly exact?: boolean;
    }>();
    expectTypeOf<Extract<Args, { group: 'admin' }>>().toEqualTypeOf<{
      readonly group: 'admin';
      readonly subcommand: 'kick';
      readonly score?: number;
    }>();
    expectTypeOf<ArgsOf<typeof flat>>().toEqualTypeOf<{ readonly region?: string }>();

    const args = {} as Args;
    if (args.subcommand === 'find') {
      expectTypeOf(args.name).toEqualTypeOf<string>();
      // @ts-expect-error: the definition has no option `nmae`
      expect(args.nmae).toBeUndefined();
    }
    // @ts-expect-error: `page` belongs to `find` only, so it needs the subcommand narrowed first
    expect(args.page).toBeUndefined();
  });
});

import type {
  APIApplicationCommandOption,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

/** A command's definition as a command module writes it; `args.ts` derives its handler's arguments from it. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * An option as written in a command module: its canonical name, type and bounds. Descriptions and the
 * names of choices come from the locale files (see `localize.ts`), so they are not written here.
 */
export type OptionSpec = DistributiveOmit<
  APIApplicationCommandOption,
  'description' | 'options' | 'choices'
> & {
  readonly options?: readonly OptionSpec[];
  readonly choices?: ReadonlyArray<{ readonly value: string | number }>;
};

export interface CommandSpec extends Omit<
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  'description' | 'options' | 'name'
> {
  readonly name: string;
  readonly options?: readonly OptionSpec[];
}

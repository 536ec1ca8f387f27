import type { AnnouncementKind } from '../../src/announcements/kinds/kind.ts';
import type { Subscription, SubscriptionOptions } from '../../src/announcements/model.ts';
import { readOptionArgs, type OptionArgs } from '../../src/discord/args.ts';
import type { CommandContext, OptionSpec } from '../../src/discord/command.ts';
import type { Translator } from '../../src/i18n/index.ts';
import type { Services } from '../../src/services.ts';

export interface ReadOptionsResult {
  readonly options: SubscriptionOptions;
  /** Localized warnings for the confirmation (e.g. a role the bot cannot ping). */
  readonly notes?: readonly string[];
}

/**
 * The command half of a subscription kind: the `/subscribe <kind>` subcommand's options, how they are read
 * into a subscription, and how `/subscriptions` describes them. Its delivery half (`kind`) says which
 * events the subscription gets and what they post (`src/announcements/kinds/`).
 */
export interface SubscribeKind {
  /** Its name is the subcommand's. */
  readonly kind: AnnouncementKind;
  /** The subcommand's options after `channel` (canonical names; words in `subscribe.json`). */
  readonly options: readonly OptionSpec[];
  /** Reads and checks the subcommand's options; throws `UserError` to refuse. May call the game API. */
  readOptions(ctx: CommandContext, botPermissions: BotPermissions): Promise<ReadOptionsResult>;
  /** Its options as one line of safe text for `/subscriptions` (empty when there are none). */
  describe(t: Translator, subscription: Subscription): string;
  /**
   * More lines for `/subscriptions` that need the store (the interval a clan log really keeps), by
   * subscription id, for this kind's subscriptions of one server.
   */
  status?(
    services: Services,
    t: Translator,
    subscriptions: readonly Subscription[],
  ): Promise<ReadonlyMap<string, string>>;
}

type BotPermissions = Readonly<{ has(flag: bigint): boolean }>;

/**
 * A kind's command half written against its own options: `read` receives them typed from `options`
 * (declared `as const`), so renaming an option breaks its reader at compile time.
 */
export function defineSubscribeKind<const Os extends readonly OptionSpec[]>(half: {
  readonly kind: AnnouncementKind;
  readonly options: Os;
  read(ctx: CommandContext, args: OptionArgs<Os>, botPermissions: BotPermissions): Promise<ReadOptionsResult>;
  describe(t: Translator, subscription: Subscription): string;
  status?: SubscribeKind['status'];
}): SubscribeKind {
  return {
    kind: half.kind,
    options: half.options,
    readOptions: (ctx, botPermissions) =>
      half.read(ctx, readOptionArgs(ctx.interaction.options, half.options), botPermissions),
    describe: (t, subscription) => half.describe(t, subscription),
    ...(half.status ? { status: half.status } : {}),
  };
}

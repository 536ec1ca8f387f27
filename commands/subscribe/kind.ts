import type { AnnouncementKind } from '../../src/announcements/kinds/kind.ts';
import type { Subscription, SubscriptionOptions } from '../../src/announcements/model.ts';
import type { CommandContext, OptionSpec } from '../../src/discord/command.ts';
import type { Translator } from '../../src/i18n/index.ts';

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
  readOptions(
    ctx: CommandContext,
    botPermissions: Readonly<{ has(flag: bigint): boolean }>,
  ): Promise<ReadOptionsResult>;
  /** Its options as one line of safe text for `/subscriptions` (empty when there are none). */
  describe(t: Translator, subscription: Subscription): string;
}

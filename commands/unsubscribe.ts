import type { AutocompleteChoice, Command, CommandSpec, CompletionContext } from '../src/discord/command.ts';
import { UserError } from '../src/core/user-error.ts';
import { MANAGE_COMMAND_SCOPE, requireManager, subscriptionChoices } from '../src/announcements/manage.ts';
import { subscriptionView } from './subscribe/kinds.ts';
import { text } from '../src/render/common.ts';
import { renderUnsubscribed } from '../src/announcements/render-subscriptions.ts';
import { idOption } from '../src/discord/options.ts';

/** `/unsubscribe id`: removes one of the server's subscriptions (never another server's). */
const data = {
  name: 'unsubscribe',
  ...MANAGE_COMMAND_SCOPE,
  options: [idOption(completeSubscriptions)],
} as const satisfies CommandSpec;

/** The server's subscriptions whose id, kind or channel matches what was typed. */
async function completeSubscriptions(ctx: CompletionContext): Promise<AutocompleteChoice[]> {
  const guildId = ctx.interaction.guildId;
  if (guildId === null) return [];
  const subscriptions = await ctx.services.records.announcements.subscriptions.forGuild(guildId);
  return subscriptionChoices(ctx.t, ctx.interaction, subscriptions, ctx.typed);
}

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { interaction, services } = ctx;
    const guild = requireManager(interaction);
    const id = ctx.args.id.trim().toLowerCase();
    const repository = services.records.announcements.subscriptions;
    const subscription = await repository.get(id);
    if (subscription?.guildId !== guild.id)
      throw new UserError('unsubscribe:errors.notFound', { id: text(id, 32) });
    await repository.delete(subscription.id);
    await services.records.announcements.refs.deleteAll(subscription.id);
    services.log.info({ guild: guild.id, subscription: subscription.id }, 'unsubscribed');
    await ctx.send(renderUnsubscribed(ctx.t, subscriptionView(ctx.t, subscription)));
  },
};

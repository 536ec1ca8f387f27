import type { Command } from '../src/discord/command.ts';
import { MANAGE_COMMAND_SCOPE, requireManager } from '../src/announcements/manage.ts';
import { subscriptionView } from './subscribe/kinds.ts';
import { SubscriptionRepository } from '../src/announcements/repositories.ts';
import { renderSubscriptionList } from '../src/announcements/render-subscriptions.ts';
import { trackKind } from '../src/features/tracking/kind.ts';

/** `/subscriptions`: the server's subscriptions, active or disabled with the reason. */
export const command: Command = {
  data: { name: 'subscriptions', ...MANAGE_COMMAND_SCOPE },

  async execute(ctx) {
    const guild = requireManager(ctx.interaction);
    // Tracked players have a list of their own (`/track list`).
    const subscriptions = (await new SubscriptionRepository(ctx.services.db).forGuild(guild.id)).filter(
      (subscription) => subscription.kind !== trackKind.name,
    );
    await ctx.send(
      renderSubscriptionList(
        ctx.t,
        subscriptions.map((s) => subscriptionView(ctx.t, s)),
      ),
    );
  },
};

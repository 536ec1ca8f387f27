import type { Command } from '../src/discord/command.ts';
import { MANAGE_COMMAND_SCOPE, requireManager, subscriptionView } from './subscribe/manage.ts';
import { SubscriptionRepository } from '../src/announcements/repositories.ts';
import { renderSubscriptionList } from '../src/render/subscriptions.ts';
import { trackKind } from '../src/announcements/kinds/track.ts';
import { REMIND_KIND } from '../src/features/reminders/model.ts';

/** `/subscriptions`: the server's subscriptions, active or disabled with the reason. */
export const command: Command = {
  data: { name: 'subscriptions', ...MANAGE_COMMAND_SCOPE },

  async execute(ctx) {
    const guild = requireManager(ctx.interaction);
    // Tracked players and turf reminders have lists of their own (`/track list`, `/remind list`).
    const subscriptions = (await new SubscriptionRepository(ctx.services.db).forGuild(guild.id)).filter(
      (subscription) => subscription.kind !== trackKind.name && subscription.kind !== REMIND_KIND,
    );
    await ctx.send(
      renderSubscriptionList(
        ctx.t,
        subscriptions.map((s) => subscriptionView(ctx.t, s)),
      ),
    );
  },
};

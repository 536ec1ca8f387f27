import type { Command } from '../src/discord/command.ts';
import { MANAGE_COMMAND_SCOPE, requireManager } from '../src/announcements/manage.ts';
import { SUBSCRIBE_KINDS, subscriptionView } from './subscribe/kinds.ts';
import { renderSubscriptionList } from '../src/announcements/render-subscriptions.ts';
import { trackKind } from '../src/features/tracking/kind.ts';
import { REMIND_KIND } from '../src/features/turf/reminders/model.ts';

/** `/subscriptions`: the server's subscriptions, active or disabled with the reason. */
export const command: Command = {
  data: { name: 'subscriptions', ...MANAGE_COMMAND_SCOPE },

  async execute(ctx) {
    const guild = requireManager(ctx.interaction);
    // Tracked players and turf reminders have lists of their own (`/track list`, `/remind list`).
    const subscriptions = (await ctx.services.records.announcements.subscriptions.forGuild(guild.id)).filter(
      (subscription) => subscription.kind !== trackKind.name && subscription.kind !== REMIND_KIND,
    );
    // Lines some kinds add from the store (a clan log's interval really kept).
    const status = new Map<string, string>();
    for (const half of SUBSCRIBE_KINDS) {
      const theirs = subscriptions.filter((s) => s.kind === half.kind.name);
      if (!half.status || theirs.length === 0) continue;
      for (const [id, line] of await half.status(ctx.services, ctx.t, theirs)) status.set(id, line);
    }
    await ctx.send(
      renderSubscriptionList(
        ctx.t,
        subscriptions.map((s) => subscriptionView(ctx.t, s, status.get(s.id))),
      ),
    );
  },
};

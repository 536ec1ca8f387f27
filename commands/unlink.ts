import type { Command, CommandSpec } from '../src/discord/command.ts';
import { accountLinks } from '../src/players/accounts.ts';
import { linkVerifications } from '../src/features/links/verification.ts';
import { renderUnlinked } from '../src/features/links/render.ts';
import { syncAfterLinkChange } from '../src/features/roles/follow-account.ts';

/** `/unlink`: forgets the user's linked game account, and any verification under way. */
const data = { name: 'unlink' } as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const userId = ctx.interaction.user.id;
    const links = accountLinks(ctx.services);
    const link = await links.get(userId);
    if (link) await links.delete(userId);
    const verifications = linkVerifications(ctx.services);
    const pending = await verifications.current(userId, ctx.now);
    await verifications.finish(userId);
    if (link) {
      ctx.services.log.info({ userId }, 'account unlinked');
      await syncAfterLinkChange(ctx.services, ctx.interaction.client.rest, userId, ctx.interaction.guildId);
    }
    await ctx.send(renderUnlinked(ctx.t, link?.playerName, pending !== undefined));
  },
};

import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../src/api/errors.ts';
import type { Command, CommandContext, CommandSpec } from '../src/discord/command.ts';
import { playerOption } from '../src/discord/options.ts';
import type { SubArgs } from '../src/discord/args.ts';
import { accountLinks } from '../src/players/accounts.ts';
import { UserError } from '../src/core/user-error.ts';
import {
  linkVerifications,
  MAX_CHECKS_PER_CODE,
  postsCarryCode,
} from '../src/features/links/verification.ts';
import { text, timestamp } from '../src/render/common.ts';
import {
  renderLinkNotFound,
  renderLinkStarted,
  renderLinkStatus,
  renderLinkVerified,
} from '../src/features/links/render.ts';
import { statsOf } from '../src/players/stats.ts';
import { syncAfterLinkChange } from '../src/features/roles/follow-account.ts';
import { findingNames } from '../src/search/not-found.ts';

/**
 * `/link name` hands out a one-time code to post on the game profile; `/link verify` looks for it in
 * the player's latest posts and, when found, links the Discord user to that player (its id): the name every
 * player command then uses by default (`resolvePlayerName`). One account links one user: verifying an
 * account linked to someone else moves the link. `/link status` shows the link and whether it gives roles.
 */
async function start(ctx: CommandContext<SubArgs<typeof data, 'name'>>): Promise<void> {
  const requested = ctx.args.player.trim();
  if (!requested) throw new UserError('common:errors.nameRequired');
  await ctx.defer({ ephemeral: true });
  // Another case of the name is found; a name not found is answered with the close names.
  const profile = await findingNames(ctx, () => undefined).load('player', { playerName: requested });
  const playerName = profile.player_name;
  ctx.services.names.remember('player', playerName);
  const started = await linkVerifications(ctx.services).start(ctx.interaction.user.id, playerName, ctx.now);
  if (!started.ok) throw new UserError('link:errors.tooManyCodes', { when: timestamp(started.retryAt, 'R') });
  await ctx.send(renderLinkStarted(ctx.t, started.pending, MAX_CHECKS_PER_CODE));
}

const CHECK_ERRORS = {
  none: 'link:errors.noPending',
  expired: 'link:errors.expired',
  no_checks_left: 'link:errors.noChecksLeft',
};

async function verify(ctx: CommandContext): Promise<void> {
  const userId = ctx.interaction.user.id;
  const verifications = linkVerifications(ctx.services);
  const slot = await verifications.takeCheck(userId, ctx.now);
  if (!slot.ok) throw new UserError(CHECK_ERRORS[slot.reason]);
  const { pending } = slot;
  await ctx.defer({ ephemeral: true });
  let posts;
  try {
    // Fresh, not from the reply cache: the post may be seconds old.
    posts = await ctx.services.api.call(
      'playerPosts',
      { playerName: pending.playerName, page: 1 },
      { fresh: true, priority: 'interactive' },
    );
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new UserError('link:errors.noPlayer', { name: text(pending.playerName, 64) });
    }
    throw error;
  }
  if (!postsCarryCode(posts.posts, pending.code)) {
    await ctx.send(renderLinkNotFound(ctx.t, pending, slot.checksLeft));
    return;
  }
  // The account is what the link names (its id: names change hands), read now, under the name whose posts
  // carry the code.
  let profile;
  try {
    profile = await ctx.services.api.call(
      'player',
      { playerName: pending.playerName },
      { fresh: true, priority: 'interactive' },
    );
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new UserError('link:errors.noPlayer', { name: text(pending.playerName, 64) });
    }
    throw error;
  }
  const saved = await accountLinks(ctx.services).save(userId, {
    playerName: profile.player_name,
    playerId: profile.player_id,
    linkedAt: ctx.now,
  });
  await verifications.finish(userId);
  ctx.services.log.info({ userId, moved: saved.movedFrom.length }, 'account linked');
  const rest = ctx.interaction.client.rest;
  // The newest proof of ownership wins: whoever held the account before loses the link, and its roles.
  for (const previous of saved.movedFrom) {
    ctx.services.log.info({ userId: previous, to: userId }, 'account link moved to another user');
    await syncAfterLinkChange(ctx.services, rest, previous, null);
  }
  await syncAfterLinkChange(ctx.services, rest, userId, ctx.interaction.guildId, {
    playerName: profile.player_name,
    playerId: profile.player_id,
    stats: statsOf(profile),
  });
  await ctx.send(renderLinkVerified(ctx.t, profile.player_name, saved.movedFrom.length > 0));
}

/** `/link status`: the link, whether it still gives roles, and a verification under way. */
async function status(ctx: CommandContext): Promise<void> {
  const userId = ctx.interaction.user.id;
  const link = await accountLinks(ctx.services).get(userId);
  const pending = await linkVerifications(ctx.services).current(userId, ctx.now);
  await ctx.send(
    renderLinkStatus(ctx.t, {
      link: link && {
        playerName: link.playerName,
        linkedAt: link.linkedAt,
        state:
          link.suspendedAt !== undefined ? 'suspended' : link.missingAt !== undefined ? 'missing' : 'active',
      },
      pending,
    }),
  );
}

const data = {
  name: 'link',
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'name',
      options: [playerOption],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'verify' },
    { type: ApplicationCommandOptionType.Subcommand, name: 'status' },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { args } = ctx;
    switch (args.subcommand) {
      case 'name':
        return start({ ...ctx, args });
      case 'verify':
        return verify(ctx);
      case 'status':
        return status(ctx);
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },
};

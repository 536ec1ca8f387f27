import { NotFoundError } from '../../api/errors.ts';
import { UserError } from '../../core/user-error.ts';
import type { CommandContext, ComponentContext } from '../../discord/command.ts';
import { gather } from '../../discord/gather.ts';
import { text } from '../../render/common.ts';
import { renderTurfPlayer, renderTurfStatus } from './render.ts';

/** `/turf status` and `/turf player`: the maps' holders, and one player's season. */
type Context = CommandContext | ComponentContext;

/** Turns a 404 of a name lookup into the command's own message (naming what was asked). */
async function lookup<T>(load: () => Promise<T>, key: string, asked: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof NotFoundError) throw new UserError(key, { name: text(asked, 100) });
    throw error;
  }
}

export async function showTurfStatus(ctx: Context): Promise<void> {
  const status = await ctx.load('turfStatus', {});
  for (const map of status.maps) {
    ctx.services.names.remember(
      'clan',
      map.owner?.clan_name,
      ...(map.top_clans ?? []).map((c) => c.clan_name),
    );
  }
  await ctx.send(renderTurfStatus(ctx.t, { status, now: ctx.now }));
}

export async function showTurfPlayer(ctx: Context, playerName: string): Promise<void> {
  const found = await lookup(
    () => ctx.load('gamePlayer', { playerName }),
    'turf:player.notFound',
    playerName,
  );
  const playerId = found.player_id;
  const [player, contributions, earnings] = await gather(ctx, [
    () => ctx.load('turfPlayer', { playerId }),
    () => ctx.load('turfPlayerContributions', { playerId }),
    () => ctx.load('turfPlayerEarnings', { playerId }),
  ] as const);
  ctx.services.names.remember('player', found.player_name, player.player_name);
  ctx.services.names.remember('clan', player.clan_name);
  await ctx.send(renderTurfPlayer(ctx.t, { player, contributions, earnings, now: ctx.now }));
}

import { nameOption } from '../src/discord/options.ts';
import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../src/api/errors.ts';
import type { Command, CommandContext, CommandSpec, Loader } from '../src/discord/command.ts';
import { resolvePlayerName } from '../src/players/accounts.ts';
import { UserError } from '../src/core/user-error.ts';
import { text } from '../src/render/common.ts';
import { renderTurfClan, renderTurfPlayer, renderTurfStatus } from '../src/features/turf/render.ts';

/**
 * Runs tier calls one after another until the interaction is deferred, then the rest together: two
 * loads racing while the interaction is still fresh would both try to defer it.
 */
export async function gather<T extends readonly unknown[]>(
  loader: { readonly responder: Pick<Loader['responder'], 'deferred' | 'answered'> },
  calls: { readonly [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  const results: unknown[] = [];
  const pending = [...calls] as Array<() => Promise<unknown>>;
  while (pending.length > 0 && !loader.responder.deferred && !loader.responder.answered) {
    const next = pending.shift();
    if (next) results.push(await next());
  }
  results.push(...(await Promise.all(pending.map((call) => call()))));
  return results as unknown as T;
}

/** Turns a 404 of a name lookup into the command's own message (naming what was asked). */
async function lookup<T>(load: () => Promise<T>, key: string, asked: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof NotFoundError) throw new UserError(key, { name: text(asked, 100) });
    throw error;
  }
}

async function showStatus(ctx: CommandContext) {
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

async function showClan(ctx: CommandContext, clanName: string) {
  const found = await lookup(() => ctx.load('clanByName', { clanName }), 'turf:clan.notFound', clanName);
  const clanId = found.clan_id;
  const [clan, earnings, players] = await gather(ctx, [
    () => ctx.load('turfClan', { clanId }),
    () => ctx.load('turfClanEarnings', { clanId }),
    () => ctx.load('turfClanPlayers', { clanId }),
  ] as const);
  ctx.services.names.remember('clan', found.name, clan.clan_name);
  ctx.services.names.remember('player', ...players.players.map((p) => p.player_name));
  await ctx.send(renderTurfClan(ctx.t, { clan, earnings, players, now: ctx.now }));
}

async function showPlayer(ctx: CommandContext, playerName: string) {
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

const data = {
  name: 'turf',
  options: [
    { type: ApplicationCommandOptionType.Subcommand, name: 'status' },
    { type: ApplicationCommandOptionType.Subcommand, name: 'clan', options: [nameOption('clan', true, 64)] },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'player',
      options: [nameOption('player', false, 64)],
    },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { args } = ctx;
    switch (args.subcommand) {
      case 'status':
        return showStatus(ctx);
      case 'clan': {
        const clanName = args.name.trim();
        if (!clanName) throw new UserError('turf:clan.nameRequired');
        return showClan(ctx, clanName);
      }
      case 'player':
        return showPlayer(ctx, await resolvePlayerName(ctx.interaction, ctx.services, args.name));
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },
};

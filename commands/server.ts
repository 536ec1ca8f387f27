import { ApplicationCommandOptionType, ApplicationIntegrationType, InteractionContextType } from 'discord.js';
import type { Command, CommandContext, CommandSpec, ComponentContext } from '../src/discord/command.ts';
import { defineComponents } from '../src/discord/component-id.ts';
import { pageOption, parsePage } from '../src/discord/options.ts';
import { UserError } from '../src/core/user-error.ts';
import { nameKey } from '../src/players/snapshots.ts';
import {
  HISTORY_STATS,
  higherIsBetter,
  isHistoryStat,
  statValue,
  type HistoryStat,
} from '../src/players/stats.ts';
import { renderServerLeaderboard, type LeaderboardRow } from '../src/features/history/server-board.ts';

export const SERVER_LEADERBOARD_PAGE = 10;

export const ids = defineComponents('server', { leaderboard: ['stat', 'page'] });

const data = {
  name: 'server',
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'leaderboard',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'stat',
          choices: HISTORY_STATS.map((value) => ({ value })),
        },
        pageOption,
      ],
    },
  ],
} as const satisfies CommandSpec;

/**
 * The server's linked members ranked by a stat of their latest snapshots: no request upstream at all.
 * Members without a value for the stat (no ranked standing in that region) are left out; ties share a rank.
 */
export async function serverRanking(
  ctx: Pick<CommandContext, 'services'>,
  guildId: string,
  stat: HistoryStat,
): Promise<LeaderboardRow[]> {
  const members = await ctx.services.records.players.members.linked(guildId);
  const latest = await ctx.services.records.players.snapshots.latestByNames(members.map((m) => m.playerName));
  const scored = members.flatMap((member) => {
    const snapshot = latest.get(nameKey(member.playerName));
    const value = snapshot && statValue(snapshot.stats, stat);
    return value === undefined
      ? []
      : [{ userId: member.userId, playerName: snapshot?.playerName ?? member.playerName, value }];
  });
  const sign = higherIsBetter(stat) ? -1 : 1;
  scored.sort((x, y) => sign * (x.value - y.value) || x.playerName.localeCompare(y.playerName));
  let rank = 0;
  return scored.map((row, index) => {
    if (index === 0 || scored[index - 1]?.value !== row.value) rank = index + 1;
    return { ...row, rank };
  });
}

async function show(ctx: CommandContext | ComponentContext, stat: HistoryStat, page: number) {
  const guild = ctx.interaction.guild;
  const guildId = ctx.interaction.guildId;
  if (!guildId) throw new UserError('server:errors.guildOnly');
  const ranking = await serverRanking(ctx, guildId, stat);
  const pages = Math.max(1, Math.ceil(ranking.length / SERVER_LEADERBOARD_PAGE));
  const shown = Math.min(page, pages);
  const rows = ranking.slice((shown - 1) * SERVER_LEADERBOARD_PAGE, shown * SERVER_LEADERBOARD_PAGE);
  await ctx.send(
    renderServerLeaderboard(ctx.t, {
      guildName: guild?.name ?? '',
      stat,
      rows,
      page: shown,
      pages,
      total: ranking.length,
      own: ranking.find((row) => row.userId === ctx.interaction.user.id),
      pager: ids.pager(ctx.now, (p, at) => ids.encode.leaderboard({ stat, page: p }, at)),
    }),
  );
}

/** `/server leaderboard [stat] [page]`. */
export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const stat = ctx.args.stat ?? 'kd';
    if (!isHistoryStat(stat)) throw new UserError('common:errors.unknownCommand');
    return show(ctx, stat, ctx.args.page ?? 1);
  },

  async component(ctx) {
    const id = ids.decode(ctx.id);
    if (!id || !isHistoryStat(id.args.stat)) throw new UserError('common:errors.unknownComponent');
    return show(ctx, id.args.stat, parsePage(id.args.page) ?? 1);
  },
};

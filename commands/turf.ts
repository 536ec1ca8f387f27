import { nameOption } from '../src/discord/options.ts';
import { ApplicationCommandOptionType } from 'discord.js';
import type { Command, CommandSpec } from '../src/discord/command.ts';
import { resolvePlayerName } from '../src/players/accounts.ts';
import { findingNames } from '../src/search/not-found.ts';
import { UserError } from '../src/core/user-error.ts';
import { isTurfBoard, TURF_BOARDS } from '../src/features/turf/boards.ts';
import { completeTurfDay, turfComponent } from '../src/features/turf/interactions.ts';
import { TURF_MAP_IDS } from '../src/features/turf/maps.ts';
import {
  dayOption,
  mapOption,
  showTurfBoard,
  showTurfClan,
  showTurfPayouts,
} from '../src/features/turf/show.ts';
import { showTurfPlayer, showTurfStatus } from '../src/features/turf/standing.ts';

export { gather } from '../src/discord/gather.ts';

/** A date, `YYYY-MM-DD` (UTC), with the recent days offered as you type. */
const day = {
  type: ApplicationCommandOptionType.String,
  name: 'day',
  min_length: 10,
  max_length: 10,
  autocomplete: completeTurfDay,
} as const;

const map = {
  type: ApplicationCommandOptionType.Integer,
  name: 'map',
  choices: TURF_MAP_IDS.map((value) => ({ value })),
} as const;

const clan = {
  type: ApplicationCommandOptionType.String,
  name: 'clan',
  required: true,
  min_length: 1,
  max_length: 64,
  autocomplete: 'clan',
} as const;

/** A clan name as given; Discord enforces the length, this catches a name of spaces only. */
function clanName(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new UserError('turf:clan.nameRequired');
  return trimmed;
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
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'leaderboard',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'board',
          required: true,
          choices: TURF_BOARDS.map((value) => ({ value })),
        },
        day,
        map,
      ],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'payouts', options: [clan, day] },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { args } = ctx;
    switch (args.subcommand) {
      case 'status':
        return showTurfStatus(ctx);
      case 'clan':
        return showTurfClan(ctx, clanName(args.name));
      case 'player':
        // A name in another case finds the player; a typo gets close names (no button: none runs this).
        return showTurfPlayer(
          findingNames(ctx, () => undefined),
          await resolvePlayerName(ctx.interaction, ctx.services, args.name),
        );
      case 'leaderboard': {
        if (!isTurfBoard(args.board)) throw new UserError('turf:errors.board');
        const asked = { day: dayOption(args.day, ctx.now), mapId: mapOption(args.map) };
        return showTurfBoard(ctx, { board: args.board, ...asked, page: 1 });
      }
      case 'payouts':
        return showTurfPayouts(ctx, clanName(args.clan), dayOption(args.day, ctx.now));
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  component: turfComponent,
};

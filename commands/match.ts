import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../src/api/errors.ts';
import type { Command, CommandContext, CommandSpec, ComponentContext } from '../src/discord/command.ts';
import { COMPONENT_LIFETIME_MS, defineComponents } from '../src/discord/component-id.ts';
import { UserError } from '../src/core/user-error.ts';
import { pastTimes, text } from '../src/render/common.ts';
import { OPEN_MATCH_BUTTON, renderMatch } from '../src/features/players/matches.ts';
import { officialMapNames } from '../src/features/maps/official.ts';

const MAX_ID_LENGTH = 20;

/** The ids of this command's buttons: `open` shows one match (the match buttons of `/player matches`). */
export const ids = defineComponents(OPEN_MATCH_BUTTON.command, OPEN_MATCH_BUTTON.actions);

export const matchIds = {
  /** The custom id of a button that opens match `matchId`, or undefined when it does not fit. */
  open: (matchId: string, now: number) => ids.encode.open({ id: matchId }, now + COMPONENT_LIFETIME_MS),
};

/**
 * The match id as typed, checked to be digits only. It stays a string: ids exceed 2^53, so a number
 * would silently name another match.
 */
export function parseMatchId(input: string | null | undefined): string {
  const id = (input ?? '').trim();
  if (!/^\d+$/.test(id) || id.length > MAX_ID_LENGTH) {
    throw new UserError('match:invalidId', { id: text(id, 40), max: MAX_ID_LENGTH });
  }
  return id;
}

async function showMatch(ctx: CommandContext | ComponentContext, matchId: string): Promise<void> {
  let match;
  try {
    match = await ctx.load('match', { matchId });
  } catch (error) {
    if (error instanceof NotFoundError) throw new UserError('match:notFound', { id: matchId });
    throw error;
  }
  ctx.services.names.remember('player', ...(match.participants ?? []).map((p) => p.player_name));
  const names = await officialMapNames(ctx, match.map !== undefined);
  const mapName = match.map === undefined ? undefined : names.get(match.map);
  const past = pastTimes(ctx.now, ctx.services.log);
  await ctx.send(renderMatch(ctx.t, { match, mapName, past }));
}

const data = {
  name: 'match',
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'id',
      required: true,
      min_length: 1,
      max_length: MAX_ID_LENGTH,
    },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    await showMatch(ctx, parseMatchId(ctx.args.id));
  },

  /** A match button (of `/player matches`): the clicked message becomes that match. */
  async component(ctx) {
    const id = ids.decode(ctx.id);
    if (id?.action !== 'open') throw new UserError('common:errors.unknownComponent');
    await showMatch(ctx, parseMatchId(id.args.id));
  },
};

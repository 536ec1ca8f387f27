import { ApplicationCommandOptionType } from 'discord.js';
import { ApiError, NotFoundError } from '../src/api/errors.ts';
import type { Command, CommandContext, CommandSpec } from '../src/discord/command.ts';
import { UserError } from '../src/core/user-error.ts';
import { text } from '../src/render/common.ts';
import { renderMatch } from '../src/render/match.ts';

const MAX_ID_LENGTH = 20;

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

/**
 * The official map's name: the list is cached for six hours, so this costs one request now and then.
 * A failure only costs the name (the map is then shown by number).
 */
async function officialMapName(ctx: CommandContext, id: number | undefined): Promise<string | undefined> {
  if (id === undefined) return undefined;
  try {
    const maps = await ctx.load('officialMaps', {});
    return maps.find((map) => map.id === id)?.name;
  } catch (error) {
    if (error instanceof ApiError) {
      ctx.services.log.debug({ err: error }, 'official maps unavailable; showing the map by number');
      return undefined;
    }
    throw error;
  }
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
    const matchId = parseMatchId(ctx.args.id);
    let match;
    try {
      match = await ctx.load('match', { matchId });
    } catch (error) {
      if (error instanceof NotFoundError) throw new UserError('match:notFound', { id: matchId });
      throw error;
    }
    ctx.services.names.remember('player', ...(match.participants ?? []).map((p) => p.player_name));
    const mapName = await officialMapName(ctx, match.map);
    await ctx.send(renderMatch(ctx.t, { match, mapName }));
  },
};

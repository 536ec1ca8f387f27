import { ApplicationCommandOptionType } from 'discord.js';
import { NotFoundError } from '../src/api/errors.ts';
import type {
  AutocompleteChoice,
  Command,
  CommandContext,
  ComponentContext,
} from '../src/discord/command.ts';
import type { NameIndex } from '../src/discord/names.ts';
import { UserError } from '../src/core/user-error.ts';
import type { Translator } from '../src/i18n/index.ts';
import { DEFAULT_DAYS, renderMarketSkin } from '../src/render/market.ts';
import { truncate } from '../src/render/text.ts';

const MIN_DAYS = 1;
const MAX_DAYS = 120;
const MAX_PAGE = 1000;
const CHOICES = 25;

function isSkinIndex(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function isDays(value: number): boolean {
  return Number.isInteger(value) && value >= MIN_DAYS && value <= MAX_DAYS;
}

async function showSkin(
  ctx: CommandContext | ComponentContext,
  skinIndex: number,
  days: number,
  page: number,
): Promise<void> {
  let data;
  try {
    // The market endpoint takes over 10 s when cold: always defer, even when the answer may be cached.
    data = await ctx.load('marketSkin', { skinIndex, days, page }, { slow: true });
  } catch (error) {
    if (error instanceof NotFoundError) throw new UserError('market:notFound', { index: skinIndex });
    throw error;
  }
  const { names } = ctx.services;
  names.remember('player', ...(data.listings ?? []).map((listing) => listing.seller_name));
  names.remember('player', ...(data.owners ?? []).map((owner) => owner.player_name));
  await ctx.send(
    renderMarketSkin(ctx.t, { data, skinName: names.skinName(skinIndex), days, page, now: ctx.now }),
  );
}

/**
 * Autocomplete for the `skin` option: skin names whose value is the index. A typed index that no known
 * skin matches is still offered, so the command works before the skin list has loaded.
 */
export function skinChoices(
  t: Translator,
  names: Pick<NameIndex, 'suggestSkins'>,
  // Discord sends what was typed so far; typed as a string, but an integer option may come as a number.
  query: string | number,
): AutocompleteChoice[] {
  const trimmed = String(query).trim();
  const choices: AutocompleteChoice[] = names.suggestSkins(trimmed, CHOICES);
  if (/^\d{1,15}$/.test(trimmed)) {
    const index = Number(trimmed);
    if (!choices.some((choice) => choice.value === index)) {
      choices.unshift({ name: t.t('market:unknownSkin', { index }), value: index });
    }
  }
  return choices
    .slice(0, CHOICES)
    .map((choice) => ({ name: truncate(choice.name, 100), value: choice.value }));
}

/** `market:listings:<skin>:<days>:<page>`; anything else is not a button this command made. */
export function listingsArgs(args: readonly string[]): { skinIndex: number; days: number; page: number } {
  const [skinIndex, days, page] = args.map(Number);
  if (
    args.length !== 3 ||
    skinIndex === undefined ||
    days === undefined ||
    page === undefined ||
    !isSkinIndex(skinIndex) ||
    !isDays(days) ||
    !Number.isInteger(page) ||
    page < 1 ||
    page > MAX_PAGE
  ) {
    throw new UserError('common:errors.unknownComponent');
  }
  return { skinIndex, days, page };
}

export const command: Command = {
  data: {
    name: 'market',
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'skin',
        options: [
          {
            type: ApplicationCommandOptionType.Integer,
            name: 'skin',
            required: true,
            min_value: 0,
            autocomplete: true,
          },
          {
            type: ApplicationCommandOptionType.Integer,
            name: 'days',
            min_value: MIN_DAYS,
            max_value: MAX_DAYS,
          },
        ],
      },
    ],
  },

  async execute(ctx) {
    const { options } = ctx.interaction;
    if (options.getSubcommand() !== 'skin') throw new UserError('common:errors.unknownCommand');
    const skinIndex = options.getInteger('skin', true);
    const days = options.getInteger('days') ?? DEFAULT_DAYS;
    if (!isSkinIndex(skinIndex)) throw new UserError('market:invalidSkin');
    if (!isDays(days)) throw new UserError('market:invalidDays', { min: MIN_DAYS, max: MAX_DAYS });
    return showSkin(ctx, skinIndex, days, 1);
  },

  async component(ctx) {
    if (ctx.id.action !== 'listings') throw new UserError('common:errors.unknownComponent');
    const { skinIndex, days, page } = listingsArgs(ctx.id.args);
    return showSkin(ctx, skinIndex, days, page);
  },

  autocomplete(ctx): Promise<AutocompleteChoice[]> {
    const focused = ctx.interaction.options.getFocused(true);
    return Promise.resolve(
      focused.name === 'skin' ? skinChoices(ctx.t, ctx.services.names, focused.value) : [],
    );
  },
};

import { UserError } from '../../../core/user-error.ts';
import type { ComponentContext } from '../../../discord/command.ts';
import { parsePage, wholeNumber } from '../../../discord/options.ts';
import { clanPageIds, type BoardState } from './ids.ts';
import { isRecruitLanguage, isRecruitRegion } from './recruitment.ts';
import { clanNameOf, showClanMembers, showClanProfile, showRecruitment } from './show.ts';

/** `/clan`'s buttons: every argument read back from an id is checked before use. */

function unknown(): never {
  throw new UserError('common:errors.unknownComponent');
}

/** A recruitment page's state from a button: '' is "any"; a value the options never offer is refused. */
function boardState(args: {
  readonly region: string;
  readonly language: string;
  readonly page: string;
}): BoardState {
  const region = args.region === '' ? undefined : wholeNumber(args.region, 0, 1000);
  const language = args.language === '' ? undefined : args.language;
  if (args.region !== '' && !isRecruitRegion(region)) unknown();
  if (language !== undefined && !isRecruitLanguage(language)) unknown();
  return { region, language, page: parsePage(args.page) ?? 1 };
}

export async function clanComponent(ctx: ComponentContext): Promise<void> {
  const id = clanPageIds.decode(ctx.id);
  if (!id) unknown();
  switch (id.action) {
    case 'members':
      return showClanMembers(ctx, clanNameOf(id.args.name), parsePage(id.args.page) ?? 1);
    case 'find':
      if (id.args.sub === 'profile') return showClanProfile(ctx, clanNameOf(id.args.name));
      if (id.args.sub === 'members') return showClanMembers(ctx, clanNameOf(id.args.name), 1);
      return unknown();
    case 'recruit':
      return showRecruitment(ctx, boardState(id.args));
    case 'open':
      return showClanProfile(ctx, clanNameOf(id.args.name), boardState(id.args));
  }
}

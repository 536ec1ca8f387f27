import { nameOption, pageOption, parsePage } from '../src/discord/options.ts';
import { ApplicationCommandOptionType } from 'discord.js';
import type { Command, CommandSpec } from '../src/discord/command.ts';
import { UserError } from '../src/core/user-error.ts';
import { clanPageButtons, clanPageIds } from '../src/features/clans/page/ids.ts';
import { clanComponent } from '../src/features/clans/page/interactions.ts';
import {
  isRecruitLanguage,
  isRecruitRegion,
  RECRUIT_LANGUAGES,
  RECRUIT_REGIONS,
} from '../src/features/clans/page/recruitment.ts';
import {
  clanNameOf,
  showClanMembers,
  showClanProfile,
  showRecruitment,
} from '../src/features/clans/page/show.ts';

export { clanNameOf } from '../src/features/clans/page/show.ts';

const name = nameOption('clan', true);
const page = pageOption;

/** The ids of this command's buttons; exported for the renderer tests. */
export const ids = clanPageIds;

export const clanIds = {
  members: clanPageButtons.members,
  membersPager: clanPageButtons.membersPager,
  find: clanPageButtons.find,
};

const data = {
  name: 'clan',
  options: [
    { type: ApplicationCommandOptionType.Subcommand, name: 'profile', options: [name] },
    { type: ApplicationCommandOptionType.Subcommand, name: 'members', options: [name, page] },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'recruitment',
      options: [
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'region',
          choices: RECRUIT_REGIONS.map((value) => ({ value })),
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'language',
          choices: RECRUIT_LANGUAGES.map((value) => ({ value })),
        },
      ],
    },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { args } = ctx;
    switch (args.subcommand) {
      case 'profile':
        return showClanProfile(ctx, clanNameOf(args.name));
      case 'members':
        return showClanMembers(ctx, clanNameOf(args.name), parsePage(args.page) ?? 1);
      case 'recruitment': {
        const { region, language } = args;
        // Discord offers only these; a stale definition might not.
        if (region !== undefined && !isRecruitRegion(region)) throw new UserError('clan:errors.region');
        if (language !== undefined && !isRecruitLanguage(language))
          throw new UserError('clan:errors.language');
        return showRecruitment(ctx, { region, language, page: 1 });
      }
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  component: clanComponent,
};

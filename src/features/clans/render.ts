import { ButtonStyle, ComponentType } from 'discord.js';
import type { ClanMembers, ClanProfile } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import {
  field,
  fit,
  num,
  pageRow,
  pageRows,
  pastTimestamp,
  text,
  type Pager,
  type PastTimes,
  type Row,
} from '../../render/common.ts';
import { clanRoleName } from '../../render/names.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { DiscordLimits, truncate } from '../../render/text.ts';

export const CLAN_MEMBERS_PER_PAGE = 10;

const INVITE_CODE = /^[A-Za-z0-9-]{2,32}$/;

/**
 * The clan's chat invite as a bare link, or undefined when the code is unset or not a plausible invite
 * code: whatever else the game stores there must not reach the message as a link.
 */
export function inviteUrl(code: string | undefined): string | undefined {
  const trimmed = code?.trim() ?? '';
  return INVITE_CODE.test(trimmed) ? `https://discord.gg/${trimmed}` : undefined;
}

/** How many pages `memberCount` members fill (at least one: an empty clan still has its first page). */
export function memberPages(memberCount: number | undefined): number | undefined {
  if (memberCount === undefined || !Number.isFinite(memberCount) || memberCount < 0) return undefined;
  return Math.max(1, Math.ceil(memberCount / CLAN_MEMBERS_PER_PAGE));
}

function membersButton(t: Translator, id: string | undefined): Row | undefined {
  if (!id) return undefined;
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        custom_id: id,
        label: truncate(t.t('clan:profile.showMembers'), DiscordLimits.buttonLabel),
      },
    ],
  };
}

/**
 * A clan's profile: owner, score, rank, members, creation date and its chat invite when it has one.
 * `membersId` is the custom id of the button that lists the members (none when undefined).
 */
export function renderClanProfile(
  t: Translator,
  clan: ClanProfile,
  membersId: string | undefined,
  past?: PastTimes,
): ReplyPayload {
  const invite = inviteUrl(clan.discord);
  const fields = [
    field(t.t('clan:profile.owner'), text(clan.owner_name, 100)),
    field(t.t('clan:profile.score'), num(t, clan.score)),
    field(t.t('clan:profile.rank'), clan.rank === undefined ? '—' : `#${num(t, clan.rank)}`),
    field(t.t('clan:profile.members'), num(t, clan.member_count)),
    field(t.t('clan:profile.created'), pastTimestamp(clan.created_at, 'D', past)),
  ];
  if (invite) fields.push(field(t.t('clan:profile.invite'), invite, false));
  const row = membersButton(t, membersId);
  return {
    embeds: [
      fit({
        color: Colors.brand,
        title: text(clan.name, 200),
        fields,
        footer: { text: t.t('common:footer') },
      }),
    ],
    components: row ? [row] : [],
  };
}

export interface ClanMembersView {
  /** The clan's name as the game spells it (from its profile), else as the user typed it. */
  readonly name: string;
  readonly data: ClanMembers;
  readonly page: number;
  /** From the clan's profile; gives "page x of y" and stops "next" on the last page. */
  readonly memberCount?: number | undefined;
  readonly pager: Pager;
}

/**
 * One page of members, in the API's order (role, then score), with role names and verified marks. The
 * lines are bullets, not places: the order is by role, and the footer says so.
 */
export function renderClanMembers(t: Translator, view: ClanMembersView): ReplyPayload {
  const { name, data, page } = view;
  const perPage = data.per_page ?? CLAN_MEMBERS_PER_PAGE;
  const members = pageRows(data.members, perPage);
  const lines = members.map((member) =>
    t.t(member.score === undefined ? 'clan:members.lineNoScore' : 'clan:members.line', {
      name: text(member.player_name, 100),
      verified: member.verified ? ' ✅' : '',
      role: clanRoleName(t, member.role),
      score: num(t, member.score),
    }),
  );
  const totalPages = memberPages(view.memberCount);
  const footer = [
    view.memberCount === undefined
      ? undefined
      : t.t('clan:members.count', { count: view.memberCount, n: num(t, view.memberCount) }),
    members.length > 1 ? t.t('clan:members.order') : undefined,
    members.some((member) => member.verified) ? t.t('clan:members.verifiedLegend') : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(' · ');
  const embed = fit({
    color: Colors.brand,
    title: t.t('clan:members.title', { name: text(name, 100) }),
    description: lines.length > 0 ? lines.join('\n') : t.t('clan:members.none'),
    ...(footer ? { footer: { text: footer } } : {}),
  });
  const row = pageRow(t, {
    pager: view.pager,
    page,
    totalPages,
    hasNext: totalPages === undefined ? data.members.length >= perPage : page < totalPages,
  });
  return { embeds: [embed], components: row ? [row] : [] };
}

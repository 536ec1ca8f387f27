import { ButtonStyle, ComponentType, type APIButtonComponent } from 'discord.js';
import type { ClanLootConfig, ClanMotd, ClanProfile } from '../../../api/schemas/index.ts';
import type { Translator } from '../../../i18n/index.ts';
import { renderClanProfile } from '../render.ts';
import { field, fit, text, type PastTimes, type Row } from '../../../render/common.ts';
import type { ReplyPayload } from '../../../render/payload.ts';
import { DiscordLimits, safeText, truncate } from '../../../render/text.ts';

/**
 * `/clan profile` with the clan's own words: its message of the day and how it splits turf earnings.
 * Both are the clan's text or settings, shown as data (escaped; unknown modes named as unknown); a part
 * the game did not give reads "not available" and the rest of the profile stays.
 */
const MOTD_MAX = 1000;
const MODE_MAX = 32;
const LOOT_MODES = ['points', 'equal'] as const;

function percentOf(t: Translator, share: number | undefined): string {
  return share === undefined ? '—' : t.n(share / 100, { style: 'percent', maximumFractionDigits: 1 });
}

/** The message of the day, escaped: markdown and mentions in it show as typed. */
export function motdText(t: Translator, motd: ClanMotd | undefined): string {
  if (!motd) return t.t('clan:page.motdUnavailable');
  return safeText(motd.motd, MOTD_MAX, t.t('clan:page.noMotd'));
}

/** How the clan splits turf earnings: the mode, then the leader's and the members' shares. */
export function lootText(t: Translator, loot: ClanLootConfig | undefined): string {
  if (!loot) return t.t('clan:page.lootUnavailable');
  const { mode } = loot;
  const modeLine =
    mode === undefined
      ? t.t('clan:page.loot.noMode')
      : (LOOT_MODES as readonly string[]).includes(mode)
        ? t.t(`clan:page.loot.${mode}`)
        : t.t('clan:page.loot.unknown', { mode: text(mode, MODE_MAX) });
  if (loot.leader_share === undefined && loot.member_share === undefined) return modeLine;
  const shares = t.t('clan:page.loot.shares', {
    leader: percentOf(t, loot.leader_share),
    members: percentOf(t, loot.member_share),
  });
  return `${modeLine}\n${shares}`;
}

export interface ClanPageView {
  readonly clan: ClanProfile;
  /** Undefined when the game did not give it. */
  readonly motd: ClanMotd | undefined;
  readonly loot: ClanLootConfig | undefined;
  /** The button to the members list (none when undefined). */
  readonly membersId: string | undefined;
  /** The button back to the recruitment page the profile was opened from. */
  readonly backId?: string | undefined;
  readonly past?: PastTimes | undefined;
}

function backButton(t: Translator, id: string): APIButtonComponent {
  return {
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: id,
    label: truncate(t.t('clan:recruitment.back'), DiscordLimits.buttonLabel),
  };
}

/** The back button first in the first row (the members button's), or in a row of its own. */
function withBack(rows: readonly Row[], back: APIButtonComponent): Row[] {
  const [first, ...others] = rows;
  if (!first) return [{ type: ComponentType.ActionRow, components: [back] }];
  return [{ ...first, components: [back, ...first.components] }, ...others];
}

export function renderClanPage(t: Translator, view: ClanPageView): ReplyPayload {
  const base = renderClanProfile(t, view.clan, view.membersId, view.past);
  const [embed] = base.embeds ?? [];
  if (!embed) return base;
  const fields = [
    ...(embed.fields ?? []),
    field(t.t('clan:page.motd'), motdText(t, view.motd), false),
    field(t.t('clan:page.lootTitle'), lootText(t, view.loot), false),
  ];
  const rows = base.components ?? [];
  const components = view.backId ? withBack(rows, backButton(t, view.backId)) : rows;
  return { ...base, embeds: [fit({ ...embed, fields })], components };
}

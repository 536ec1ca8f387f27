import type { APIEmbed } from 'discord.js';
import type { Translator } from '../../../i18n/index.ts';
import { num, text } from '../../../render/common.ts';
import { clanRoleName } from '../../../render/names.ts';
import { Colors, type ReplyPayload } from '../../../render/payload.ts';
import { DiscordLimits, embedLength, textLength, truncate } from '../../../render/text.ts';
import type { RosterChange, RosterMember } from './model.ts';

/**
 * A clan log post: everything one read of a clan's roster found, in ONE message with an embed per kind of
 * change (the owner, joins, leaves, probable renames, promotions, demotions, milestones, the clan's own
 * figures). The message stays within Discord's limits whatever the lists hold: each kind gets an equal
 * part of the 6,000 characters a message may carry (a kind alone gets two embeds of up to 4,000), and what
 * does not fit is counted ("…and 12 more"). Names from the game are escaped: they are data, never markup.
 */
export interface ClanLogView {
  readonly clanName: string;
  readonly change: RosterChange;
  /** When the read was made (epoch ms). */
  readonly at: number;
}

const NAME_MAX = 40;
/** Kept free of the 6,000 for continuation titles and rounding. */
const MARGIN = 300;
/** The most one description carries (under Discord's 4,096, so a line never lands on the edge). */
const DESCRIPTION_MAX = 4_000;

/**
 * One kind of change: its entries are formatted only as far as they fit (a list of 200 long names costs
 * the dozen lines shown, not 200).
 */
interface Section {
  readonly key: string;
  readonly color: number;
  readonly count: number;
  line(index: number): string;
  /** Entries past the list (left out of the event already). */
  readonly more: number;
}

function section<T>(
  key: string,
  color: number,
  items: readonly T[],
  format: (item: T) => string,
  more = 0,
): Section {
  return { key, color, count: items.length, line: (index) => format(items[index] as T), more };
}

const name = (value: string) => `**${text(value, NAME_MAX)}**`;

function memberLine(t: Translator, member: RosterMember): string {
  return t.t('clanlog:line.member', {
    name: name(member.n),
    role: clanRoleName(t, member.r),
    score: num(t, member.s),
  });
}

function sections(t: Translator, change: RosterChange): Section[] {
  const more = (key: string) => change.more?.[key] ?? 0;
  const role = (r: { n: string; from: number; to: number }) =>
    t.t('clanlog:line.role', { name: name(r.n), from: clanRoleName(t, r.from), to: clanRoleName(t, r.to) });
  const owner = (value: string | null) => (value === null ? t.t('common:unknown') : name(value));
  const all: Section[] = [
    section('owner', Colors.gold, change.owner ? [change.owner] : [], (o) =>
      t.t('clanlog:line.owner', { from: owner(o.from), to: owner(o.to) }),
    ),
    section('joined', Colors.success, change.joined, (m) => memberLine(t, m), more('joined')),
    section('left', Colors.danger, change.left, (m) => memberLine(t, m), more('left')),
    section(
      'renamed',
      Colors.info,
      change.renamed,
      (r) => t.t('clanlog:line.renamed', { from: name(r.from), to: name(r.to), score: num(t, r.s) }),
      more('renamed'),
    ),
    section('promoted', Colors.success, change.promoted, role, more('promoted')),
    section('demoted', Colors.warning, change.demoted, role, more('demoted')),
    section(
      'milestones',
      Colors.gold,
      change.milestones,
      (m) =>
        t.t('clanlog:line.milestone', {
          name: name(m.n),
          milestone: num(t, m.milestone),
          score: num(t, m.s),
        }),
      more('milestones'),
    ),
    section('clan', Colors.info, clanLines(t, change), (line) => line),
  ];
  return all.filter((part) => part.count + part.more > 0);
}

function clanLines(t: Translator, change: RosterChange): string[] {
  const lines: string[] = [];
  if (change.memberCount)
    lines.push(
      t.t('clanlog:line.memberCount', {
        from: num(t, change.memberCount.from),
        to: num(t, change.memberCount.to),
      }),
    );
  if (change.rank)
    lines.push(t.t('clanlog:line.rank', { from: num(t, change.rank.from), to: num(t, change.rank.to) }));
  return lines;
}

/** As many lines as fit in `share` characters, then "…and N more" for the rest; split into descriptions. */
function descriptions(t: Translator, section: Section, share: number): string[] {
  const reserve = 40;
  const kept: string[] = [];
  let used = 0;
  for (let index = 0; index < section.count; index += 1) {
    const line = section.line(index);
    const cost = textLength(line) + 1;
    if (used + cost > share - reserve) break;
    kept.push(line);
    used += cost;
  }
  const leftOut = section.count - kept.length + section.more;
  if (leftOut > 0) kept.push(t.t('clanlog:more', { n: num(t, leftOut) }));
  const chunks: string[] = [];
  let current = '';
  for (const line of kept) {
    const next = current === '' ? line : `${current}\n${line}`;
    if (textLength(next) > DESCRIPTION_MAX && current !== '') {
      chunks.push(current);
      current = truncate(line, DESCRIPTION_MAX);
    } else current = truncate(next, DESCRIPTION_MAX);
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

export function renderClanLog(t: Translator, view: ClanLogView): ReplyPayload {
  const clan = text(view.clanName, NAME_MAX);
  const parts = sections(t, view.change);
  const titles = parts.map((section) =>
    truncate(
      t.t(`clanlog:titles.${section.key}`, { clan, n: num(t, section.count + section.more) }),
      DiscordLimits.embedTitle,
    ),
  );
  const footer = t.t('clanlog:footer');
  const fixed = titles.reduce((sum, title) => sum + textLength(title), textLength(footer));
  const share = Math.floor((DiscordLimits.embedTotal - MARGIN - fixed) / Math.max(1, parts.length));
  const embeds: APIEmbed[] = [];
  parts.forEach((section, index) => {
    const title = titles[index] ?? '';
    for (const [chunk, description] of descriptions(t, section, share).entries())
      embeds.push({
        color: section.color,
        title: chunk === 0 ? title : `${title} (${chunk + 1})`,
        description,
      });
  });
  const kept = embeds.slice(0, DiscordLimits.embeds);
  const last = kept.at(-1);
  if (last) {
    last.footer = { text: footer };
    last.timestamp = new Date(view.at).toISOString();
  }
  // The parts were sized to fit; this only guards the sum against a translation far longer than planned.
  while (
    kept.length > 1 &&
    kept.reduce((sum, embed) => sum + embedLength(embed), 0) > DiscordLimits.embedTotal
  )
    kept.splice(-2, 1);
  return { embeds: kept };
}

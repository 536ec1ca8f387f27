import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { Translator } from '../../../i18n/index.ts';
import { field, fit, num, text } from '../../../render/common.ts';
import { Colors, type ReplyPayload } from '../../../render/payload.ts';
import { DiscordLimits, textLength } from '../../../render/text.ts';
import { dayDate } from '../render.ts';
import { turfDayDate } from '../../../api/turf-days.ts';
import { NAME_MAX, type Digest } from './model.ts';

/**
 * The daily digest's post: the clan's place, points and KR of the day, its top contributors, its payouts,
 * and (only where the subscription asks for it) the members of the roster who scored nothing. Every name is
 * the game's text, escaped; every list is cut to what one field holds, the rest counted.
 */
export interface DigestView {
  readonly digest: Digest;
  /** Whether this channel lists the members who played nothing. */
  readonly idle: boolean;
}

/**
 * As many lines (or names) as fit in `max` characters with `more(left)` after them, joined by `separator`;
 * the lines are safe text already.
 */
export function within(
  parts: readonly string[],
  max: number,
  separator: string,
  more: (left: number) => string,
  extra = 0,
): string {
  const shown: string[] = [];
  let length = 0;
  for (const [index, part] of parts.entries()) {
    // Room is kept for the "and N more" that would follow this part.
    const after = parts.length - index - 1 + extra;
    const tail = after > 0 ? textLength(separator) + textLength(more(after)) : 0;
    const added = (shown.length > 0 ? textLength(separator) : 0) + textLength(part);
    if (length + added + tail > max) {
      shown.push(more(parts.length - index + extra));
      return shown.join(separator);
    }
    shown.push(part);
    length += added;
  }
  if (extra > 0) shown.push(more(extra));
  return shown.join(separator);
}

function standingLine(t: Translator, digest: Digest): string {
  const points = num(t, digest.points);
  if (digest.points === undefined || digest.points === 0) return t.t('digest:post.noPoints');
  if (typeof digest.position === 'number')
    return t.t('digest:post.position', { count: digest.points, position: num(t, digest.position), points });
  if (digest.position === null) return t.t('digest:post.outside', { count: digest.points, points });
  return t.t('digest:post.points', { count: digest.points, points });
}

function contributorsField(t: Translator, digest: Digest): APIEmbedField {
  if (digest.contributors.length === 0)
    return field(t.t('digest:post.contributors'), t.t('digest:post.noContributors'), false);
  const lines = digest.contributors.map((c, index) =>
    t.t('digest:post.contributor', {
      count: c.points ?? 0,
      rank: num(t, index + 1),
      name: text(c.name, NAME_MAX),
      points: num(t, c.points),
      kills: num(t, c.kills),
      deaths: num(t, c.deaths),
    }),
  );
  const extra = Math.max(0, digest.played - digest.contributors.length);
  const more = (left: number) => t.t('digest:post.more', { n: num(t, left) });
  return field(
    t.t('digest:post.contributors'),
    within(lines, DiscordLimits.fieldValue, '\n', more, extra),
    false,
  );
}

function payoutsField(t: Translator, digest: Digest): APIEmbedField {
  const name = t.t('digest:post.payouts');
  if (digest.payouts.length === 0) return field(name, t.t('digest:post.noPayouts'), false);
  const summary = t.t('digest:post.paidTotal', { n: num(t, digest.paid), kr: num(t, digest.paidKr) });
  const lines = digest.payouts.map((p) =>
    t.t('digest:post.payout', { name: text(p.name, NAME_MAX), kr: num(t, p.kr) }),
  );
  const extra = Math.max(0, digest.paid - digest.payouts.length);
  const more = (left: number) => t.t('digest:post.more', { n: num(t, left) });
  const room = DiscordLimits.fieldValue - textLength(summary) - 1;
  return field(name, `${within(lines, room, '\n', more, extra)}\n${summary}`, false);
}

function idleField(t: Translator, idle: NonNullable<Digest['idle']>): APIEmbedField {
  const name = t.t('digest:post.idle');
  if (idle.count === 0) return field(name, t.t('digest:post.noIdle'), false);
  const summary = t.t('digest:post.idleSummary', { n: num(t, idle.count), roster: num(t, idle.roster) });
  const names = idle.names.map((n) => text(n, NAME_MAX));
  const more = (left: number) => t.t('digest:post.more', { n: num(t, left) });
  const room = DiscordLimits.fieldValue - textLength(summary) - 1;
  const extra = Math.max(0, idle.count - idle.names.length);
  return field(name, `${summary}\n${within(names, room, ', ', more, extra)}`, false);
}

/** One clan's turf day, posted once after the day ends, in the server's language. */
export function renderTurfDigest(t: Translator, { digest, idle }: DigestView): ReplyPayload {
  const clan = text(digest.clanName, NAME_MAX);
  const kr =
    digest.kr === undefined
      ? undefined
      : digest.kr > 0
        ? t.t('digest:post.kr', { kr: num(t, digest.kr) })
        : t.t('digest:post.noKr');
  const fields = [contributorsField(t, digest), payoutsField(t, digest)];
  if (idle) {
    fields.push(
      digest.idle === undefined
        ? field(t.t('digest:post.idle'), t.t('digest:post.noRoster'), false)
        : idleField(t, digest.idle),
    );
  }
  const embed: APIEmbed = {
    color: (digest.kr ?? 0) > 0 ? Colors.gold : Colors.neutral,
    title: t.t('digest:post.title', { clan, day: num(t, digest.day), date: dayDate(t, digest.day) }),
    description: [standingLine(t, digest), ...(kr === undefined ? [] : [kr])].join('\n'),
    fields,
    timestamp: new Date(turfDayDate(digest.day + 1)).toISOString(),
    footer: { text: t.t('digest:post.footer') },
  };
  return { content: '', embeds: [fit(embed)] };
}

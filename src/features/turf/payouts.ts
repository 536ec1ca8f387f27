import type { TurfClanPayouts } from '../../api/schemas/index.ts';
import type { Translator } from '../../i18n/index.ts';
import { fit, num, text, timestamp, type Pager } from '../../render/common.ts';
import { localPage, localRow, place } from '../../render/pages.ts';
import { Colors, type ReplyPayload } from '../../render/payload.ts';
import { turfDayDate } from '../../api/turf-days.ts';
import { dayLabel } from './labels.ts';

/**
 * `/turf payouts`: who in a clan was paid what for one turf day, or over the season (the API's totals
 * when no day is asked). Most paid first, 25 a page.
 */
const NAME_MAX = 40;

export interface TurfPayoutsView {
  /** The clan's name as the game spells it. */
  readonly clanName: string;
  readonly payouts: TurfClanPayouts;
  /** The day asked, or undefined for the season's totals. */
  readonly day: number | undefined;
  /** Today's turf day: today's payouts come only after it ends. */
  readonly today: number;
  readonly page: number;
  readonly pager: Pager;
}

interface Paid {
  /** The game's name, or undefined when the row has none (then shown by its id). */
  readonly name: string | undefined;
  readonly id: number;
  readonly kr: number;
}

/** The payouts, most paid first (then by name, so that pages keep their order between clicks). */
export function paidMembers(payouts: TurfClanPayouts['payouts']): Paid[] {
  return payouts
    .map((row) => ({ name: row.player_name, id: row.player_id, kr: row.kr ?? 0 }))
    .sort((a, b) => b.kr - a.kr || (a.name ?? '').localeCompare(b.name ?? '') || a.id - b.id);
}

function scope(t: Translator, view: TurfPayoutsView): string {
  if (view.day === undefined) return t.t('turf:payouts.season');
  const line = t.t('turf:payouts.forDay', { day: dayLabel(t, view.day) });
  if (view.day < view.today) return line;
  return `${line}\n${t.t('turf:payouts.todayPending', { end: timestamp(turfDayDate(view.day + 1), 'R') })}`;
}

export function renderTurfPayouts(t: Translator, view: TurfPayoutsView): ReplyPayload {
  const paid = paidMembers(view.payouts.payouts);
  const total = paid.reduce((sum, row) => sum + row.kr, 0);
  const slice = localPage(paid, view.page);
  const lines = slice.rows.map((row, i) =>
    t.t('turf:payouts.line', {
      place: place(t, undefined, slice.offset + i),
      name: row.name === undefined ? `#${row.id}` : text(row.name, NAME_MAX),
      kr: num(t, row.kr),
    }),
  );
  const none = t.t(view.day === undefined ? 'turf:payouts.noneSeason' : 'turf:payouts.noneDay');
  return {
    embeds: [
      fit({
        color: total > 0 ? Colors.gold : Colors.neutral,
        title: t.t('turf:payouts.title', { name: text(view.clanName, 200) }),
        description: `${scope(t, view)}\n\n${lines.length > 0 ? lines.join('\n') : none}`,
        footer: {
          text: t.t('turf:payouts.footer', {
            count: paid.length,
            kr: num(t, total),
            players: num(t, paid.length),
          }),
        },
      }),
    ],
    components: localRow(t, slice, view.pager),
  };
}

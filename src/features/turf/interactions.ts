import { UserError } from '../../core/user-error.ts';
import type { ComponentContext } from '../../discord/command.ts';
import type { Completer } from '../../discord/spec.ts';
import { parsePage, wholeNumber } from '../../discord/options.ts';
import { turfDay } from '../../api/turf-days.ts';
import { isTurfBoard } from './boards.ts';
import { recentTurfDates, storedTurfDay } from './day.ts';
import { turfIds } from './ids.ts';
import { dayLabel } from './labels.ts';
import { storedTurfMap } from './maps.ts';
import { showTurfBoard, showTurfClan, showTurfPayouts, showTurfPayoutsPage } from './show.ts';

/** `/turf`'s buttons and autocomplete: every argument read back from an id is checked before use. */

function unknown(): never {
  throw new UserError('common:errors.unknownComponent');
}

/** '' (not given) or a turf day up to today; anything else is not an id this bot wrote. */
function dayArg(value: string, now: number): number | undefined {
  if (value === '') return undefined;
  return storedTurfDay(value, now) ?? unknown();
}

export async function turfComponent(ctx: ComponentContext): Promise<void> {
  const id = turfIds.decode(ctx.id);
  if (!id) unknown();
  switch (id.action) {
    case 'board': {
      const { board } = id.args;
      const map = storedTurfMap(id.args.map);
      if (!isTurfBoard(board) || map === undefined) unknown();
      return showTurfBoard(ctx, {
        board,
        day: dayArg(id.args.day, ctx.now),
        mapId: map === 'all' ? undefined : map,
        page: parsePage(id.args.page) ?? 1,
      });
    }
    case 'payouts': {
      const clanId = wholeNumber(id.args.clan, 0, Number.MAX_SAFE_INTEGER) ?? unknown();
      return showTurfPayoutsPage(ctx, clanId, dayArg(id.args.day, ctx.now), parsePage(id.args.page) ?? 1);
    }
    case 'find': {
      const name = id.args.name.trim();
      if (name === '') unknown();
      if (id.args.sub === 'clan') return showTurfClan(ctx, name);
      if (id.args.sub === 'payouts') return showTurfPayouts(ctx, name, dayArg(id.args.day, ctx.now));
      return unknown();
    }
  }
}

/** Dates for `day`: today first, then the days before it that match what was typed. */
export const completeTurfDay: Completer = (ctx) => {
  const today = turfDay(ctx.now);
  const todayWord = ctx.t.t('turf:boards.today');
  return Promise.resolve(
    recentTurfDates(ctx.now, ctx.typed, (day, iso) =>
      [iso, dayLabel(ctx.t, day), ...(day === today ? [todayWord] : [])].join(' · '),
    ),
  );
};

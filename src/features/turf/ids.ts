import { COMPONENT_LIFETIME_MS, defineComponents } from '../../discord/component-id.ts';
import type { TurfBoard } from './boards.ts';

/**
 * The custom ids of `/turf`'s buttons. A board page carries its board, day and map; a payouts page the
 * clan's id (short, and unchanged by a rename) and the day; '' stands for "not given".
 */
export const turfIds = defineComponents('turf', {
  board: ['board', 'day', 'map', 'page'],
  payouts: ['clan', 'day', 'page'],
  /** A "did you mean" button: runs `sub` (clan or payouts) for the clan `name`, on `day` for payouts. */
  find: ['sub', 'name', 'day'],
});

const given = (value: number | undefined) => (value === undefined ? '' : value);

export const turfPagers = {
  board: (board: TurfBoard, day: number | undefined, mapId: number | undefined, now: number) =>
    turfIds.pager(now, (page, at) =>
      turfIds.encode.board({ board, day: given(day), map: given(mapId), page }, at),
    ),
  payouts: (clanId: number, day: number | undefined, now: number) =>
    turfIds.pager(now, (page, at) => turfIds.encode.payouts({ clan: clanId, day: given(day), page }, at)),
  find: (sub: 'clan' | 'payouts', name: string, day: number | undefined, now: number) =>
    turfIds.encode.find({ sub, name, day: given(day) }, now + COMPONENT_LIFETIME_MS),
};

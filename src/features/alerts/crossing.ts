/**
 * When a price alert fires, with hysteresis so that a price toggling around the threshold fires once:
 *
 * - an armed alert that sees the price on its side of the threshold (`below`: at or under it; `above`: at
 *   or over it) becomes `pending`; it fires only if the next check, at least `CONFIRM_GAP_MS` later, still
 *   sees it there (a check that does not goes back to armed);
 * - a fired alert re-arms only once the price has moved back past the threshold by `REARM_MARGIN`
 *   (2 %: a `below` alert at 1,000 KR re-arms above 1,020 KR);
 * - and it fires again at the earliest `COOLDOWN_MS` (6 h) after it last fired (a confirmed crossing inside
 *   the cooldown waits, pending, until it is over).
 *
 * A skin with nothing listed has no price: an armed or fired alert does not move, a pending one goes back to
 * armed (the crossing did not hold).
 */
export type Direction = 'below' | 'above';
export const DIRECTIONS = ['below', 'above'] as const satisfies readonly Direction[];

export type AlertStatus = 'armed' | 'pending' | 'fired' | 'disabled';
export type Transition = 'pend' | 'fire' | 'unpend' | 'rearm' | 'none';

/** How far back past the threshold the price must move before a fired alert is armed again. */
export const REARM_MARGIN = 0.02;
/** The shortest time between two firings of one alert. */
export const COOLDOWN_MS = 6 * 60 * 60_000;
/** A crossing is confirmed by a check at least this long after the one that first saw it. */
export const CONFIRM_GAP_MS = 30_000;

/** Whether `price` is on the alert's side of `threshold`. */
export function crossed(direction: Direction, threshold: number, price: number): boolean {
  return direction === 'below' ? price <= threshold : price >= threshold;
}

/** Whether `price` is back past the threshold by the margin (a fired alert re-arms). */
export function movedBack(direction: Direction, threshold: number, price: number): boolean {
  return direction === 'below'
    ? price > threshold * (1 + REARM_MARGIN)
    : price < threshold * (1 - REARM_MARGIN);
}

export interface CrossingState {
  readonly status: AlertStatus;
  readonly direction: Direction;
  readonly threshold: number;
  /** When the crossing now pending was first seen. */
  readonly pendingAt?: number | undefined;
  /** When it last fired. */
  readonly firedAt?: number | undefined;
}

export function transition(alert: CrossingState, price: number | undefined, now: number): Transition {
  if (alert.status === 'disabled') return 'none';
  if (price === undefined || !Number.isFinite(price)) return alert.status === 'pending' ? 'unpend' : 'none';
  const across = crossed(alert.direction, alert.threshold, price);
  switch (alert.status) {
    case 'armed':
      return across ? 'pend' : 'none';
    case 'pending': {
      if (!across) return 'unpend';
      if (alert.pendingAt === undefined || now - alert.pendingAt < CONFIRM_GAP_MS) return 'none';
      return coolingDown(alert, now) ? 'none' : 'fire';
    }
    case 'fired':
      return movedBack(alert.direction, alert.threshold, price) ? 'rearm' : 'none';
  }
}

/** Whether the alert fired less than `COOLDOWN_MS` before `now`. */
export function coolingDown(alert: Pick<CrossingState, 'firedAt'>, now: number): boolean {
  return alert.firedAt !== undefined && now - alert.firedAt < COOLDOWN_MS;
}

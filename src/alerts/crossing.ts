/**
 * When a price alert fires: once per crossing. An armed alert fires when the price reaches its threshold
 * from the right side (`below`: at or under it; `above`: at or over it), then stays fired until the price
 * is back on the other side, which arms it again. A skin with nothing listed has no price: nothing moves.
 */
export type Direction = 'below' | 'above';
export const DIRECTIONS = ['below', 'above'] as const satisfies readonly Direction[];

export type AlertStatus = 'armed' | 'fired' | 'disabled';
export type Transition = 'fire' | 'rearm' | 'none';

/** Whether `price` is on the alert's side of `threshold`. */
export function crossed(direction: Direction, threshold: number, price: number): boolean {
  return direction === 'below' ? price <= threshold : price >= threshold;
}

export function transition(
  alert: { readonly status: AlertStatus; readonly direction: Direction; readonly threshold: number },
  price: number | undefined,
): Transition {
  if (price === undefined || !Number.isFinite(price) || alert.status === 'disabled') return 'none';
  const across = crossed(alert.direction, alert.threshold, price);
  if (alert.status === 'armed' && across) return 'fire';
  if (alert.status === 'fired' && !across) return 'rearm';
  return 'none';
}

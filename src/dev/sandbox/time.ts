export const SECOND_MS = 1_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** RFC 3339 UTC without fractional seconds, as the service writes it. */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `YYYY-MM-DD HH:MM:SS` (UTC), the format of map and mod dates. */
export function sqlTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

const dayNames = new Map<number, string>();

/** `YYYY-MM-DD` (UTC). */
export function ymd(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let name = dayNames.get(day);
  if (name === undefined) {
    name = new Date(day * DAY_MS).toISOString().slice(0, 10);
    dayNames.set(day, name);
  }
  return name;
}

export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

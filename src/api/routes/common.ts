import type { CachePolicy } from '../route.ts';
import { leaderboardOrder, leaderboardType } from '../params.ts';

export const halfMinute: CachePolicy = { ttlMs: 30_000 };
export const minute: CachePolicy = { ttlMs: 60_000 };
export const tenMinutes: CachePolicy = { ttlMs: 10 * 60_000 };
export const sixHours: CachePolicy = { ttlMs: 6 * 60 * 60_000 };

export const boardQuery = { type: 'type', order: 'order' } as const;
export const boardParams = { type: leaderboardType.optional(), order: leaderboardOrder.optional() };

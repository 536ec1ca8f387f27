import { KPD_CONTEXT_LABELS, KPD_RATING_LABELS, KPD_STATUS_LABELS, REGION_KEYS } from '../names.ts';
import { DAY_MS, iso } from '../time.ts';
import { at, type WorldContext } from './common.ts';
import type { KpdCall, Player } from './types.ts';

/** Newest first. */
export function makeKpdCalls(
  { rng, nowMs, anchorMs }: WorldContext,
  players: readonly Player[],
  kpdPlayer: Player,
  hacker: Player,
): KpdCall[] {
  const officers = [kpdPlayer, ...players.filter((p) => p.kpd && p !== kpdPlayer)];
  const callers = players.filter((p) => p.stats.games > 0 && !p.banned);
  let nextCallId = 88_000;
  let callTime = anchorMs - 10 * DAY_MS;
  const calls: KpdCall[] = [];
  for (let i = 0; i < 50; i++) {
    nextCallId += rng.int(1, 30);
    callTime += rng.int(1, 5 * 60) * 60_000;
    const status = (i % 3) + 1;
    const rating = status === 1 ? 0 : status === 2 ? (i % 2 === 0 ? 0 : 1) : i % 2 === 0 ? 1 : 2;
    const caller = rng.pick(callers);
    const guest = i % 7 === 3;
    const called = i === 4 ? hacker : rng.pick(players);
    const officer = status === 1 ? null : rng.pick(officers);
    const kdfType = i % 4;
    const region = rng.pick(REGION_KEYS);
    const jobRating = rng.int(0, 400);
    calls.push({
      id: nextCallId,
      // Fifty steps of up to five hours can pass now: the newest calls are pulled back before it, a minute
      // apart, which keeps their order.
      date: iso(Math.min(callTime, nowMs - (50 - i) * 60_000)),
      caller_id: caller.id,
      caller_name: caller.name,
      caller_score: caller.stats.score,
      caller_job_rating: jobRating,
      caller_job_rating_positive: rng.int(0, jobRating),
      called_id: guest ? 0 : called.id,
      called_name: guest ? 'guest' : called.name,
      called_score: guest ? 0 : called.stats.score,
      kdf_type: kdfType,
      kdf_type_label: at(KPD_CONTEXT_LABELS, kdfType),
      status,
      status_label: KPD_STATUS_LABELS[status] ?? '',
      rating,
      rating_label: at(KPD_RATING_LABELS, rating),
      officer_id: officer?.id ?? 0,
      officer_name: officer?.name ?? '',
      status_date: iso(
        Math.min(
          Math.min(callTime, nowMs - (50 - i) * 60_000) + (status === 1 ? 0 : rng.int(5, 600) * 60_000),
          nowMs,
        ),
      ),
      game_code: `${(region.split('-').at(-1) ?? region).toUpperCase()}:${rng.token(5)}`,
      host: `${region}-${rng.int(1, 9)}.gameservers.example`,
      port: String(rng.int(30_000, 39_999)),
      token: rng.token(32, '0123456789abcdef'),
    });
  }
  return calls.reverse();
}

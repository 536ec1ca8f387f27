import type { TierClient } from '../../../api/client.ts';
import type { ClanLeaderboard, GameClan } from '../../../api/schemas/index.ts';
import { MAX_NAME, RosterMemberSchema, RosterSchema, type Roster, type RosterMember } from './model.ts';

/**
 * Reading a clan's whole roster in one keyless call of the game tier (`/clans/{id}/profile`: every member
 * with short keys `n` name, `r` role, `s` score), instead of the developer tier's 10 members a page. What
 * the reply holds is checked where it enters: a name is cut to {@link MAX_NAME}, a role or score out of
 * range reads as unknown, a name seen twice counts once, and a reply without its member list is no roster
 * at all (compared with the last one it would read as everybody leaving).
 */

/** The clan's roster now; undefined when the reply has no member list. Throws the tier client's errors. */
export type RosterReader = (clanId: number, signal: AbortSignal) => Promise<Roster | undefined>;

/** Every clan's place on the clan leaderboard (clan id → position); read once for all followed clans. */
export type RankReader = (signal: AbortSignal) => Promise<ReadonlyMap<number, number>>;

const OPTIONS = { priority: 'background', fresh: true, deadlineMs: 30_000 } as const;

export function apiRosterReader(api: TierClient): RosterReader {
  return async (clanId, signal) => {
    const reply = await api.call('clanProfile', { clanId }, { ...OPTIONS, signal });
    return rosterOf(reply);
  };
}

export function apiRankReader(api: TierClient): RankReader {
  return async (signal) => ranksOf(await api.call('clanLeaderboard', {}, { ...OPTIONS, signal }));
}

/** A member as kept: a usable name, and only the role and score that are in range. */
function memberOf(raw: {
  readonly n: string;
  readonly r?: number | undefined;
  readonly s?: number | undefined;
}): RosterMember | undefined {
  const name = raw.n.slice(0, MAX_NAME);
  if (name.trim() === '') return undefined;
  const role = RosterMemberSchema.shape.r.safeParse(raw.r);
  const score = RosterMemberSchema.shape.s.safeParse(raw.s);
  return {
    n: name,
    ...(role.success && role.data !== undefined ? { r: role.data } : {}),
    ...(score.success && score.data !== undefined ? { s: score.data } : {}),
  };
}

/** The reply as a roster (without its rank), or undefined when it has no member list. */
export function rosterOf(reply: GameClan): Roster | undefined {
  if (reply.members === undefined) return undefined;
  const members = new Map<string, RosterMember>();
  // The schema keeps at most 2,000 members: the loop is bounded by it.
  for (const raw of reply.members) {
    const member = memberOf(raw);
    if (member && !members.has(member.n)) members.set(member.n, member);
  }
  const owner = reply.owner_name?.slice(0, MAX_NAME);
  const shape = RosterSchema.shape;
  const score = shape.score.safeParse(reply.score);
  const count = shape.memberCount.safeParse(reply.member_count);
  const roster = {
    clanId: reply.clan_id,
    name: reply.name.slice(0, MAX_NAME),
    ...(owner !== undefined && owner.trim() !== '' ? { owner } : {}),
    ...(score.success && score.data !== undefined ? { score: score.data } : {}),
    ...(count.success && count.data !== undefined ? { memberCount: count.data } : {}),
    members: [...members.values()],
  };
  const parsed = RosterSchema.safeParse(roster);
  return parsed.success ? parsed.data : undefined;
}

/** Positions of the clan leaderboard by clan id (rows without a usable position are left out). */
export function ranksOf(board: ClanLeaderboard): Map<number, number> {
  const ranks = new Map<number, number>();
  for (const row of board.rows) {
    const rank = RosterSchema.shape.rank.safeParse(row.position);
    if (rank.success && rank.data !== undefined && !ranks.has(row.clan_id)) ranks.set(row.clan_id, rank.data);
  }
  return ranks;
}

import { MAX_LISTED, MILESTONES, type Roster, type RosterChange, type RosterMember } from './model.ts';

/**
 * What changed between two reads of a clan's roster. The roster has names, roles and scores but no ids,
 * so a member is known by name: a renamed player reads as a leave and a join. When one leave and one join
 * of the same read have the same score (above zero; and the same role when both are known), and no other
 * leave or join has that score, the pair is reported as a probable rename instead.
 *
 * Roles: a higher value is a higher rank (the owner holds the highest); a change up is a promotion, down
 * a demotion. A role or score the reply did not give (degraded) is compared with nothing. When the owner
 * changed, the old and new owner's role changes are part of that news and not listed again.
 */
export function diffRosters(before: Roster, after: Roster): RosterChange {
  const was = new Map(before.members.map((m) => [m.n, m]));
  const is = new Map(after.members.map((m) => [m.n, m]));
  const left = before.members.filter((m) => !is.has(m.n));
  const joined = after.members.filter((m) => !was.has(m.n));
  const renamed = probableRenames(left, joined);
  const renamedFrom = new Set(renamed.map((r) => r.from));
  const formerName = new Map(renamed.map((r) => [r.to, r.from]));
  // An owner who was renamed is still the owner: the rename says it.
  const owner =
    before.owner !== undefined &&
    after.owner !== undefined &&
    before.owner !== after.owner &&
    formerName.get(after.owner) !== before.owner
      ? { from: before.owner, to: after.owner }
      : undefined;
  const ownerNames = new Set(owner ? [owner.from, owner.to] : []);
  const promoted: RosterChange['promoted'] = [];
  const demoted: RosterChange['demoted'] = [];
  const milestones: RosterChange['milestones'] = [];
  for (const member of after.members) {
    const earlier = was.get(formerName.get(member.n) ?? member.n);
    if (!earlier) continue;
    if (
      earlier.r !== undefined &&
      member.r !== undefined &&
      earlier.r !== member.r &&
      !ownerNames.has(member.n)
    )
      (member.r > earlier.r ? promoted : demoted).push({ n: member.n, from: earlier.r, to: member.r });
    const milestone = passedMilestone(earlier.s, member.s);
    if (milestone !== undefined && member.s !== undefined)
      milestones.push({ n: member.n, milestone, s: member.s });
  }
  const more: Record<string, number> = {};
  const bounded = <T>(name: string, items: readonly T[]): T[] => {
    if (items.length > MAX_LISTED) more[name] = items.length - MAX_LISTED;
    return items.slice(0, MAX_LISTED);
  };
  const count = memberCount(before, after);
  return {
    joined: bounded(
      'joined',
      joined.filter((m) => !formerName.has(m.n)),
    ),
    left: bounded(
      'left',
      left.filter((m) => !renamedFrom.has(m.n)),
    ),
    renamed: bounded('renamed', renamed),
    promoted: bounded('promoted', promoted),
    demoted: bounded('demoted', demoted),
    ...(owner ? { owner } : {}),
    milestones: bounded('milestones', milestones),
    ...(count ? { memberCount: count } : {}),
    ...(before.rank !== undefined && after.rank !== undefined && before.rank !== after.rank
      ? { rank: { from: before.rank, to: after.rank } }
      : {}),
    ...(Object.keys(more).length > 0 ? { more } : {}),
  };
}

/** Leaves and joins paired by a score (above zero) that exactly one leave and one join have. */
function probableRenames(
  left: readonly RosterMember[],
  joined: readonly RosterMember[],
): Array<{ from: string; to: string; s: number }> {
  const byScore = (members: readonly RosterMember[]) => {
    const groups = new Map<number, RosterMember[]>();
    for (const member of members) {
      if (member.s === undefined || member.s <= 0) continue;
      groups.set(member.s, [...(groups.get(member.s) ?? []), member]);
    }
    return groups;
  };
  const leaving = byScore(left);
  const arriving = byScore(joined);
  const pairs: Array<{ from: string; to: string; s: number }> = [];
  for (const [score, gone] of leaving) {
    const came = arriving.get(score);
    const [from] = gone;
    const [to] = came ?? [];
    if (gone.length !== 1 || came?.length !== 1 || !from || !to) continue;
    if (from.r !== undefined && to.r !== undefined && from.r !== to.r) continue;
    pairs.push({ from: from.n, to: to.n, s: score });
  }
  return pairs;
}

/** The highest milestone passed going from `from` to `to`, when both are known. */
export function passedMilestone(from: number | undefined, to: number | undefined): number | undefined {
  if (from === undefined || to === undefined || to <= from) return undefined;
  let passed: number | undefined;
  for (const milestone of MILESTONES) if (from < milestone && milestone <= to) passed = milestone;
  return passed;
}

/** The member count the clan states, when both replies state it; else the lengths of the two lists. */
function memberCount(before: Roster, after: Roster): { from: number; to: number } | undefined {
  const stated = before.memberCount !== undefined && after.memberCount !== undefined;
  const from = stated ? (before.memberCount ?? 0) : before.members.length;
  const to = stated ? (after.memberCount ?? 0) : after.members.length;
  return from === to ? undefined : { from, to };
}

/** Whether a change has anything to tell at all. */
export function isEmptyChange(change: RosterChange): boolean {
  return (
    change.joined.length === 0 &&
    change.left.length === 0 &&
    change.renamed.length === 0 &&
    change.promoted.length === 0 &&
    change.demoted.length === 0 &&
    change.owner === undefined &&
    change.milestones.length === 0 &&
    change.memberCount === undefined &&
    change.rank === undefined &&
    change.more === undefined
  );
}

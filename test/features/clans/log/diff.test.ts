import { describe, expect, it } from 'vitest';
import { diffRosters, isEmptyChange, passedMilestone } from '../../../../src/features/clans/log/diff.ts';
import { MAX_LISTED, type Roster, type RosterMember } from '../../../../src/features/clans/log/model.ts';
import { rosterOf } from '../../../../src/features/clans/log/roster.ts';

/** What one read of a roster found changed since the read before: pure, no I/O. */
function roster(members: RosterMember[], extra: Partial<Roster> = {}): Roster {
  return { clanId: 7, name: 'Vortex', owner: 'Boss', members, ...extra };
}

const boss: RosterMember = { n: 'Boss', r: 3, s: 900_000 };
const ann: RosterMember = { n: 'Ann', r: 1, s: 40_000 };
const bob: RosterMember = { n: 'Bob', r: 0, s: 12_000 };

describe('diffRosters', () => {
  it('finds nothing between two equal reads', () => {
    const change = diffRosters(roster([boss, ann, bob]), roster([boss, ann, bob]));
    expect(isEmptyChange(change)).toBe(true);
  });

  it('tells joins, leaves, promotions and demotions apart', () => {
    const cid: RosterMember = { n: 'Cid', r: 0, s: 0 };
    const change = diffRosters(
      roster([boss, ann, bob]),
      roster([boss, { ...ann, r: 0 }, { ...bob, r: 2 }, cid]),
    );
    expect(change.joined).toEqual([cid]);
    expect(change.left).toEqual([]);
    expect(change.promoted).toEqual([{ n: 'Bob', from: 0, to: 2 }]);
    expect(change.demoted).toEqual([{ n: 'Ann', from: 1, to: 0 }]);
    const gone = diffRosters(roster([boss, ann, bob]), roster([boss, ann]));
    expect(gone.left).toEqual([bob]);
    expect(gone.memberCount).toEqual({ from: 3, to: 2 });
  });

  it('tells an owner change once, without the two owners’ role changes', () => {
    const change = diffRosters(
      roster([boss, ann, bob]),
      roster([{ ...boss, r: 2 }, { ...ann, r: 3 }, bob], { owner: 'Ann' }),
    );
    expect(change.owner).toEqual({ from: 'Boss', to: 'Ann' });
    expect(change.promoted).toEqual([]);
    expect(change.demoted).toEqual([]);
  });

  it('reports a leave and a join with the same score as a probable rename', () => {
    const change = diffRosters(roster([boss, ann, bob]), roster([boss, { ...ann, n: 'Anna' }, bob]));
    expect(change.renamed).toEqual([{ from: 'Ann', to: 'Anna', s: 40_000 }]);
    expect(change.joined).toEqual([]);
    expect(change.left).toEqual([]);
    // A renamed owner is not a new owner.
    const owner = diffRosters(
      roster([boss, ann]),
      roster([{ ...boss, n: 'Chief' }, ann], { owner: 'Chief' }),
    );
    expect(owner.renamed).toEqual([{ from: 'Boss', to: 'Chief', s: 900_000 }]);
    expect(owner.owner).toBeUndefined();
  });

  it('does not guess a rename when the score is ambiguous, zero, or the role differs', () => {
    const twin: RosterMember = { n: 'Twin', r: 0, s: 40_000 };
    const ambiguous = diffRosters(
      roster([boss, ann, twin]),
      roster([boss, { ...ann, n: 'Anna' }, { ...twin, n: 'Twins' }]),
    );
    expect(ambiguous.renamed).toEqual([]);
    expect(ambiguous.left.map((m) => m.n)).toEqual(['Ann', 'Twin']);
    const fresh = diffRosters(
      roster([boss, { n: 'New', r: 0, s: 0 }]),
      roster([boss, { n: 'Newer', r: 0, s: 0 }]),
    );
    expect(fresh.renamed).toEqual([]);
    const role = diffRosters(roster([boss, ann]), roster([boss, { ...ann, n: 'Anna', r: 2 }]));
    expect(role.renamed).toEqual([]);
  });

  it('tells the highest score milestone a member passed', () => {
    expect(passedMilestone(40_000, 120_000)).toBe(100_000);
    expect(passedMilestone(9_999, 10_000)).toBe(10_000);
    expect(passedMilestone(10_000, 24_999)).toBeUndefined();
    expect(passedMilestone(undefined, 1e9)).toBeUndefined();
    const change = diffRosters(roster([boss, ann]), roster([{ ...boss, s: 1_000_001 }, ann]));
    expect(change.milestones).toEqual([{ n: 'Boss', milestone: 1_000_000, s: 1_000_001 }]);
  });

  it('compares a degraded role or score with nothing, and tells rank and member count changes', () => {
    const change = diffRosters(
      roster([boss, ann], { rank: 12, memberCount: 2 }),
      roster([{ n: 'Boss' }, { n: 'Ann', r: 1 }], { rank: 9, memberCount: 2 }),
    );
    expect(change.promoted).toEqual([]);
    expect(change.milestones).toEqual([]);
    expect(change.rank).toEqual({ from: 12, to: 9 });
    expect(change.memberCount).toBeUndefined();
  });

  it('keeps every list bounded, counting what it left out', () => {
    const many = Array.from({ length: MAX_LISTED + 55 }, (_, i) => ({ n: `P${i}`, r: 0, s: i + 1 }));
    const change = diffRosters(roster([boss]), roster([boss, ...many]));
    expect(change.joined).toHaveLength(MAX_LISTED);
    expect(change.more).toEqual({ joined: 55 });
  });
});

describe('rosterOf', () => {
  it('checks what the reply holds: names cut, roles and scores out of range unknown, a name once', () => {
    const read = rosterOf({
      clan_id: 7,
      name: 'Vortex',
      owner_name: 'Boss',
      member_count: 3,
      members: [
        { n: 'Boss', r: 3, s: 5 },
        { n: 'X'.repeat(300), r: -4, s: 1e15 },
        { n: 'Boss', r: 0, s: 1 },
        { n: '   ' },
      ],
    });
    expect(read?.members).toEqual([{ n: 'Boss', r: 3, s: 5 }, { n: 'X'.repeat(64) }]);
    expect(read?.memberCount).toBe(3);
  });

  it('is no roster at all when the member list did not come', () => {
    expect(rosterOf({ clan_id: 7, name: 'Vortex' })).toBeUndefined();
  });
});

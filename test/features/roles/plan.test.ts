import { describe, expect, it } from 'vitest';
import { auditReason, planMember } from '../../../src/features/roles/sync.ts';
import { ruleHolds, type RoleRule } from '../../../src/features/roles/rules.ts';
import type { SnapshotStats } from '../../../src/players/stats.ts';

const T0 = Date.UTC(2026, 10, 24);

function rule(
  id: string,
  kind: RoleRule['kind'],
  roleIds: string[],
  params: RoleRule['params'] = {},
): RoleRule {
  return {
    id,
    guildId: 'g',
    kind,
    params,
    roleIds,
    state: { status: 'active' },
    createdBy: 'u',
    createdAt: T0,
  };
}

function stats(overrides: Partial<SnapshotStats> = {}): SnapshotStats {
  return {
    score: 0,
    kills: 0,
    deaths: 0,
    games: 0,
    wins: 0,
    level: 10,
    kr: 0,
    clan: 'Vortex',
    ranked: [],
    ...overrides,
  };
}

const ranked = (region: number, mmr: number) => ({
  region,
  mmr,
  wins: 1,
  losses: 1,
  kills: 1,
  deaths: 1,
  assists: 0,
  score: 0,
});

describe('role rules', () => {
  it('hold as their kind says, and never without a link', () => {
    const account = { playerName: 'Ann', stats: stats({ ranked: [ranked(3, 1500)] }) };
    expect(ruleHolds(rule('a', 'verified', ['1']), account)).toBe(true);
    expect(ruleHolds(rule('a', 'verified', ['1']), undefined)).toBe(false);
    expect(ruleHolds(rule('b', 'clan', ['1'], { clan: 'vortex' }), account)).toBe(true);
    expect(ruleHolds(rule('b', 'clan', ['1'], { clan: 'Other' }), account)).toBe(false);
    expect(ruleHolds(rule('c', 'ranked', ['1'], { threshold: 1500, region: 3 }), account)).toBe(true);
    expect(ruleHolds(rule('c', 'ranked', ['1'], { threshold: 1500, region: 2 }), account)).toBe(false);
    expect(ruleHolds(rule('c', 'ranked', ['1'], { threshold: 1501 }), account)).toBe(false);
    expect(ruleHolds(rule('c', 'ranked', ['1'], { threshold: 1400 }), account)).toBe(true);
    expect(ruleHolds(rule('d', 'level', ['1'], { threshold: 10 }), account)).toBe(true);
    expect(ruleHolds(rule('d', 'level', ['1'], { threshold: 11 }), account)).toBe(false);
    // No numbers kept yet: only a verified link counts.
    expect(
      ruleHolds(rule('d', 'level', ['1'], { threshold: 1 }), { playerName: 'Ann', stats: undefined }),
    ).toBe(false);
    const disabled = {
      ...rule('a', 'verified', ['1']),
      state: { status: 'disabled', reason: 'deletedRole', at: T0 },
    } as const;
    expect(ruleHolds(disabled, account)).toBe(false);
  });

  it('plan adds what holds, removes what rules name and no longer give, and never touches other roles', () => {
    const rules = [
      rule('v', 'verified', ['10']),
      rule('c', 'clan', ['20', '21'], { clan: 'Vortex' }),
      rule('l', 'level', ['30'], { threshold: 50 }),
    ];
    const account = { playerName: 'Ann', stats: stats() };
    // Has the level role (no longer earned) and a manual role 99.
    const changes = planMember(rules, 'u1', account, ['30', '99', '21']);
    expect(changes.map((c) => `${c.action} ${c.roleId} ${c.rule.id}`)).toEqual([
      'add 10 v',
      'add 20 c',
      'remove 30 l',
    ]);
    // Unlinked: every role rules name goes, the manual one stays.
    const unlinked = planMember(rules, 'u1', undefined, ['10', '20', '99']);
    expect(unlinked.map((c) => `${c.action} ${c.roleId}`)).toEqual(['remove 10', 'remove 20']);
    // Two rules naming one role: it stays while either holds.
    const shared = [rule('v', 'verified', ['10']), rule('l', 'level', ['10'], { threshold: 50 })];
    expect(planMember(shared, 'u1', account, ['10'])).toEqual([]);
  });

  it('names the rule in the audit-log reason, cut to Discord’s 512 characters', () => {
    const long = rule('c', 'clan', ['1'], { clan: 'x'.repeat(100) });
    const reason = auditReason({ userId: 'u', roleId: '1', action: 'add', rule: long });
    expect(reason.startsWith('killfeed role rule c (clan x')).toBe(true);
    expect(reason.length).toBeLessThanOrEqual(512);
  });

  it('makes an audit-log reason the REST client can send: lone surrogates, control characters, 512 code points', () => {
    // A clan name as the game may send it: a lone high surrogate, a newline, a NUL, then emoji.
    const hostile = rule('c', 'clan', ['1'], { clan: `\uD83Dabc\n\u0000${'😀'.repeat(95)}` });
    const reason = auditReason({ userId: 'u', roleId: '1', action: 'add', rule: hostile });
    // discord.js percent-encodes the reason into a header: a lone surrogate makes that throw URIError.
    expect(() => encodeURIComponent(reason)).not.toThrow();
    expect(reason).toContain('\uFFFDabc');
    expect(/\p{Cc}/u.test(reason)).toBe(false);
    const long = rule('c', 'clan', ['1'], { clan: '😀'.repeat(100) });
    const cut = auditReason({
      userId: 'u',
      roleId: '1',
      action: 'add',
      rule: { ...long, id: '😀'.repeat(500) },
    });
    expect([...cut]).toHaveLength(512);
    expect(() => encodeURIComponent(cut)).not.toThrow();
  });
});

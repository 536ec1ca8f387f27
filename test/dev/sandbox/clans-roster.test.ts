import { describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../../src/dev/sandbox/index.ts';
import { get, useClockedSandboxes } from '../../support/sandbox.ts';

/** Clan rosters that move: explicit changes, and one clan changing on the sandbox clock (`rosters`). */
const MINUTE = 60_000;
const startClocked = useClockedSandboxes();

interface Member {
  n: string;
  r: number;
  s: number;
}
interface Profile {
  owner_name: string;
  member_count: number;
  members: Member[];
}

async function start(options: SandboxOptions = {}) {
  const { sandbox, clock } = await startClocked(options);
  const profile = async (clanName: string): Promise<Profile> => {
    const clan = sandbox.world.clans.find((c) => c.name === clanName);
    const reply = await get(`${sandbox.urls.base}/clans/${clan?.id ?? 0}/profile`);
    expect(reply.status).toBe(200);
    return reply.body.data as Profile;
  };
  return { sandbox, clock, profile };
}

describe('sandbox clan rosters', () => {
  it('sets roles (3 hands the clan over), raises scores and renames players', async () => {
    const { sandbox, profile } = await start();
    const before = await profile('NoScope');
    const member = before.members.find((m) => m.n !== before.owner_name)!;
    sandbox.rosters.setRole(member.n, 3);
    sandbox.rosters.addScore(member.n, 1_000);
    let after = await profile('NoScope');
    expect(after.owner_name).toBe(member.n);
    expect(after.members.find((m) => m.n === member.n)).toMatchObject({ r: 3, s: member.s + 1_000 });
    expect(after.members.find((m) => m.n === before.owner_name)?.r).toBe(2);

    sandbox.rosters.setRole(before.owner_name, 7);
    sandbox.rosters.rename(member.n, 'Renamed_Owner');
    after = await profile('NoScope');
    expect(after.owner_name).toBe('Renamed_Owner');
    expect(after.members.map((m) => m.n)).not.toContain(member.n);
    expect(after.members.find((m) => m.n === before.owner_name)?.r).toBe(7);
    expect(() => sandbox.rosters.rename('Renamed_Owner', before.owner_name)).toThrow(/taken/);
    expect(() => sandbox.rosters.setRole('nobody-by-this-name', 1)).toThrow(/no player/);
    const reply = await get(`${sandbox.urls.base}/players/${member.n}`);
    expect(reply.status).toBe(404);
  });

  it('changes the scheduled clan once a tick: a join, a promotion, a leave, a demotion, a milestone, a new owner', async () => {
    const { sandbox, clock, profile } = await start({ rosters: { everyMs: MINUTE, clan: 'NoScope' } });
    expect(sandbox.rosters.scheduledClan).toBe('NoScope');
    const before = await profile('NoScope');
    clock.ms += 6 * MINUTE;
    const after = await profile('NoScope');
    const was = new Map(before.members.map((m) => [m.n, m]));
    const is = new Map(after.members.map((m) => [m.n, m]));
    expect(after.members.filter((m) => !was.has(m.n))).toHaveLength(1);
    expect(before.members.filter((m) => !is.has(m.n))).toHaveLength(1);
    expect(after.owner_name).not.toBe(before.owner_name);
    const kept = after.members.filter((m) => was.has(m.n) && m.n !== after.owner_name);
    const roles = kept.filter((m) => m.r !== was.get(m.n)?.r && m.n !== before.owner_name);
    expect(roles.map((m) => Math.sign(m.r - (was.get(m.n)?.r ?? 0))).sort()).toEqual([-1, 1]);
    expect(kept.filter((m) => m.s !== was.get(m.n)?.s)).toHaveLength(1);
    // Nothing more until the next tick.
    clock.ms += MINUTE / 2;
    expect(await profile('NoScope')).toEqual(after);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/index.ts';
import { accountLinks } from '../../../src/players/accounts.ts';
import { RoleRules } from '../../../src/features/roles/rules.ts';
import { RoleSyncer } from '../../../src/features/roles/sync.ts';
import { capturedLog } from '../../support/announcements.ts';
import { ManualClock } from '../../support/clock.ts';
import { FakeDiscord, type HeldRead } from '../../support/fake-discord.ts';

/**
 * Role syncs against a Discord held in memory and driven step by step: one server's failure never stops
 * another's, and a user's own sync never waits behind a whole server's.
 */
const USER = '400000000000000001';
const GUILDS = ['500000000000000001', '500000000000000002', '500000000000000003'] as const;
const roleOf = (guildId: string) => `6${guildId.slice(1)}`;

let db: Database;
let clock: ManualClock;

beforeEach(async () => {
  db = await openDatabase('sqlite://:memory:');
  clock = new ManualClock();
});
afterEach(async () => {
  await db.close();
});

async function seen(guildId: string, userId: string) {
  await db.kysely
    .insertInto('guild_members')
    .values({ guild_id: guildId, user_id: userId, seen_at: clock.now() })
    .execute();
}

async function verifiedRule(guildId: string) {
  const rule = await new RoleRules(db).add({
    guildId,
    kind: 'verified',
    params: {},
    roleIds: [roleOf(guildId)],
    createdBy: '1',
    createdAt: clock.now(),
  });
  if (!rule) throw new Error('no rule');
  return rule;
}

describe('role sync, server by server', () => {
  for (const code of [10004, 50001, 50013]) {
    it(`a server answering ${code} is skipped with a note, and the servers after it are synced`, async () => {
      const discord = new FakeDiscord();
      const { log, lines } = capturedLog();
      for (const guildId of GUILDS) {
        await verifiedRule(guildId);
        await seen(guildId, USER);
        discord.addMember(guildId, USER);
      }
      await accountLinks({ db }).set(USER, { playerName: 'Ann', linkedAt: clock.now() });
      discord.failing.set(GUILDS[1], code);

      const changes = await new RoleSyncer({ db, rest: discord, clock, log }).syncUser(USER);
      expect(changes).toBe(2);
      expect(discord.roles(GUILDS[0], USER)).toEqual([roleOf(GUILDS[0])]);
      expect(discord.roles(GUILDS[1], USER)).toEqual([]);
      expect(discord.roles(GUILDS[2], USER)).toEqual([roleOf(GUILDS[2])]);
      // The note names the server skipped; nothing of it is on record as given.
      const notes = lines.filter((line) => line['guildId'] === GUILDS[1] && Number(line['level']) >= 30);
      expect(notes.length).toBeGreaterThan(0);
      const grants = await db.kysely.selectFrom('role_grants').select(['guild_id', 'state']).execute();
      expect(grants.map((g) => `${g.guild_id} ${g.state}`).sort()).toEqual([
        `${GUILDS[0]} granted`,
        `${GUILDS[2]} granted`,
      ]);
    });
  }
});

describe('a user’s own sync and a bulk sync of the server', () => {
  it('a link’s sync goes through while a /roles sync of 60 members waits on Discord', async () => {
    const guildId = GUILDS[0];
    const discord = new FakeDiscord();
    const { log } = capturedLog();
    await verifiedRule(guildId);
    const members = Array.from({ length: 60 }, (_, i) => `4000000000000001${String(i).padStart(2, '0')}`);
    for (const userId of [...members, USER]) {
      await seen(guildId, userId);
      discord.addMember(guildId, userId);
      await accountLinks({ db }).set(userId, { playerName: `P${userId.slice(-3)}`, linkedAt: clock.now() });
    }
    // Every read of the bulk sync waits for the test; the user's own read does not.
    discord.hold = (_, userId) => userId !== USER;
    const syncer = () => new RoleSyncer({ db, rest: discord, clock, log });
    const bulk = syncer().sync(guildId);
    const first = await discord.nextHeld();

    let ownChanges = 0;
    const own = syncer()
      .syncUser(USER)
      .then((changes) => {
        ownChanges = changes;
        return 'own' as const;
      });
    let pending: Promise<HeldRead> = Promise.resolve(first);
    let released = 0;
    for (;;) {
      const next = await Promise.race([own, pending]);
      if (next === 'own') break;
      next.release();
      released += 1;
      pending = discord.nextHeld();
    }
    // The user's roles followed while most of the server was still waiting its turn.
    expect(discord.roles(guildId, USER)).toEqual([roleOf(guildId)]);
    expect(released).toBeLessThan(members.length / 2);

    discord.hold = () => false;
    void pending.then((read) => read.release());
    for (;;) {
      const next = await Promise.race([bulk.then(() => 'bulk' as const), discord.nextHeld()]);
      if (next === 'bulk') break;
      next.release();
    }
    const summary = await bulk;
    expect(summary.changes.length + ownChanges).toBe(members.length + 1);
    // Every member got the role once: the two syncs never changed the same member twice.
    expect(discord.changes).toHaveLength(members.length + 1);
    for (const userId of members) expect(discord.roles(guildId, userId)).toEqual([roleOf(guildId)]);
  });
});

import { describe, expect, it } from 'vitest';
import { AlertRepository, type NewAlert } from '../../../src/features/alerts/store.ts';
import { GuildDepartures } from '../../../src/guilds/departures.ts';
import { GuildMembers } from '../../../src/players/members.ts';
import { silentLog, useWorldPerTest } from '../../support/announcements.ts';
import { USER } from '../../support/alerts.ts';
import { postgresDatabase, postgresRequired, postgresUp } from '../../support/postgres.ts';

const fixture = useWorldPerTest();
const LIMITS = { user: 10, guild: 50 };

function alert(overrides: Partial<NewAlert>): NewAlert {
  return {
    guildId: fixture.world.guildId,
    userId: USER,
    channelId: undefined,
    skinIndex: 1,
    skinName: 'Skin',
    direction: 'below',
    threshold: 100,
    locale: 'en-US',
    ...overrides,
  };
}

describe('alert limits', () => {
  it('holds 10 per user under 25 concurrent adds', async () => {
    const repo = new AlertRepository(fixture.world.db);
    const now = fixture.world.clock.now();
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => repo.add(alert({ threshold: 100 + i }), LIMITS, now)),
    );
    expect(results.filter((r) => r.status === 'created')).toHaveLength(10);
    expect(results.filter((r) => r.status === 'userLimit')).toHaveLength(15);
    expect(await repo.forUser(USER)).toHaveLength(10);
  });

  it('holds 50 channel alerts per server under 80 concurrent adds by 20 managers', async () => {
    const repo = new AlertRepository(fixture.world.db);
    const now = fixture.world.clock.now();
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        repo.add(
          alert({
            userId: `3000000000000002${String(i % 20).padStart(2, '0')}`,
            channelId: '400000000000000001',
            threshold: 100 + i,
          }),
          LIMITS,
          now,
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'created')).toHaveLength(50);
    expect(results.filter((r) => r.status === 'guildLimit')).toHaveLength(30);
    expect(await repo.countForGuild(fixture.world.guildId)).toBe(50);
    // Another server is not held back by this one's limit.
    const elsewhere = await repo.add(
      alert({ guildId: '900000000000000001', userId: '300000000000000999', channelId: '4001' }),
      LIMITS,
      now,
    );
    expect(elsewhere.status).toBe('created');
  });

  it('members’ DM alerts count toward their own limits only: 5 × 10 of them leave the server’s 50 free', async () => {
    const repo = new AlertRepository(fixture.world.db);
    const now = fixture.world.clock.now();
    for (let member = 0; member < 5; member += 1)
      for (let i = 0; i < 10; i += 1) {
        const made = await repo.add(
          alert({ userId: `30000000000000030${member}`, threshold: 100 + i }),
          LIMITS,
          now,
        );
        expect(made.status).toBe('created');
      }
    expect(await repo.countForGuild(fixture.world.guildId)).toBe(0);
    expect(await repo.countMadeIn(fixture.world.guildId)).toBe(50);
    // The admin still has the server's 50 for channel alerts, and their own 10 for DMs.
    for (let i = 0; i < 50; i += 1) {
      const made = await repo.add(
        alert({ userId: USER, channelId: '4001', threshold: 100 + i }),
        LIMITS,
        now,
      );
      expect(made.status).toBe('created');
    }
    expect(
      (await repo.add(alert({ userId: USER, channelId: '4001', threshold: 7 }), LIMITS, now)).status,
    ).toBe('guildLimit');
    expect((await repo.add(alert({ userId: USER, threshold: 7 }), LIMITS, now)).status).toBe('created');
    // A user's 10 DM alerts are counted across servers.
    for (let i = 1; i < 10; i += 1)
      await repo.add(alert({ userId: USER, guildId: '900000000000000001', threshold: 200 + i }), LIMITS, now);
    expect(await repo.countForUser(USER)).toBe(10);
    expect(
      (await repo.add(alert({ userId: USER, guildId: '900000000000000002', threshold: 9 }), LIMITS, now))
        .status,
    ).toBe('userLimit');
  });

  it('the same alert twice is refused as existing; a removed one frees its place', async () => {
    const repo = new AlertRepository(fixture.world.db);
    const now = fixture.world.clock.now();
    const first = await repo.add(alert({}), { user: 1, guild: 50 }, now);
    expect(first.status).toBe('created');
    expect((await repo.add(alert({}), { user: 1, guild: 50 }, now)).status).toBe('exists');
    expect((await repo.add(alert({ threshold: 5 }), { user: 1, guild: 50 }, now)).status).toBe('userLimit');
    if (first.status === 'created') await repo.remove(first.alert.id);
    expect((await repo.add(alert({ threshold: 5 }), { user: 1, guild: 50 }, now)).status).toBe('created');
  });

  it('the departure purge removes a server’s channel alerts, and DM alerts whose only tie was the server', async () => {
    const { world } = fixture;
    const repo = new AlertRepository(world.db);
    const now = world.clock.now();
    const tied = '300000000000000555';
    const other = '900000000000000001';
    await repo.add(alert({}), LIMITS, now);
    await repo.add(alert({ channelId: '4001' }), LIMITS, now);
    await repo.add(alert({ guildId: other }), LIMITS, now);
    const kept = await repo.add(alert({ userId: tied }), LIMITS, now);
    // The tied user is seen in another server the bot is still in; USER only in the one it left.
    const members = new GuildMembers(world.db);
    await members.seen(world.guildId, USER, now);
    await members.seen(world.guildId, tied, now);
    await members.seen(other, tied, now);
    const departures = new GuildDepartures(world.db);
    await departures.left(world.guildId, now - 8 * 86_400_000);
    await departures.purge(now, silentLog);
    const left = await repo.forUser(USER);
    expect(left.map((a) => a.guildId)).toEqual([other]);
    // Kept for its user, cut from the server: no manager of it sees it, and it no longer ties the server.
    expect(kept.status === 'created' && (await repo.get(kept.alert.id))?.guildId).toBeUndefined();
    expect((await repo.forUser(tied)).map((a) => a.channelId)).toEqual([undefined]);
    expect(await repo.countMadeIn(world.guildId)).toBe(0);
    expect(await departures.knownGuildIds()).not.toContain(world.guildId);
  });
});

describe.runIf(postgresUp || postgresRequired)('alert limits on PostgreSQL', () => {
  it('holds 10 DM alerts per user and 50 channel alerts per server under concurrent adds on a pool of connections', async () => {
    const db = await postgresDatabase('alerts', 8);
    try {
      const repo = new AlertRepository(db);
      const now = Date.UTC(2026, 10, 24);
      const mine = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          repo.add(alert({ guildId: 'g1', threshold: 100 + i }), LIMITS, now),
        ),
      );
      expect(mine.filter((r) => r.status === 'created')).toHaveLength(10);
      const many = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          repo.add(
            alert({ guildId: 'g2', userId: `u${i % 20}`, channelId: 'c2', threshold: 100 + i }),
            LIMITS,
            now,
          ),
        ),
      );
      expect(many.filter((r) => r.status === 'created')).toHaveLength(50);
      expect(await repo.countForGuild('g2')).toBe(50);
      // DM alerts there take no place of the server's.
      expect((await repo.add(alert({ guildId: 'g2', userId: 'u99' }), LIMITS, now)).status).toBe('created');
    } finally {
      await db.drop();
    }
  });
});

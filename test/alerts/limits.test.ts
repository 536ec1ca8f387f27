import { describe, expect, it } from 'vitest';
import { AlertRepository, type NewAlert } from '../../src/alerts/store.ts';
import { GuildDepartures } from '../../src/guilds/departures.ts';
import { silentLog, useWorldPerTest } from '../announcements/support.ts';
import { USER } from './support.ts';
import { postgresDatabase, postgresRequired, postgresUp } from '../db/postgres.ts';

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

  it('holds 50 per server under 80 concurrent adds by 20 users, and 10 per user at once', async () => {
    const repo = new AlertRepository(fixture.world.db);
    const now = fixture.world.clock.now();
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        repo.add(
          alert({ userId: `3000000000000002${String(i % 20).padStart(2, '0')}`, threshold: 100 + i }),
          LIMITS,
          now,
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'created')).toHaveLength(50);
    expect(await repo.countForGuild(fixture.world.guildId)).toBe(50);
    // Another server is not held back by this one's limit.
    const elsewhere = await repo.add(
      alert({ guildId: '900000000000000001', userId: '300000000000000999' }),
      LIMITS,
      now,
    );
    expect(elsewhere.status).toBe('created');
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

  it('the departure purge removes a server’s alerts', async () => {
    const { world } = fixture;
    const repo = new AlertRepository(world.db);
    const now = world.clock.now();
    await repo.add(alert({}), LIMITS, now);
    await repo.add(alert({ guildId: '900000000000000001' }), LIMITS, now);
    const departures = new GuildDepartures(world.db);
    await departures.left(world.guildId, now - 8 * 86_400_000);
    await departures.purge(now, silentLog);
    const left = await repo.forUser(USER);
    expect(left.map((a) => a.guildId)).toEqual(['900000000000000001']);
  });
});

describe.runIf(postgresUp || postgresRequired)('alert limits on PostgreSQL', () => {
  it('holds 10 per user and 50 per server under concurrent adds on a pool of connections', async () => {
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
          repo.add(alert({ guildId: 'g2', userId: `u${i % 20}`, threshold: 100 + i }), LIMITS, now),
        ),
      );
      expect(many.filter((r) => r.status === 'created')).toHaveLength(50);
      expect(await repo.countForGuild('g2')).toBe(50);
    } finally {
      await db.drop();
    }
  });
});

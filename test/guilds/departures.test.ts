import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRepositories, type Repositories } from '../../src/announcements/repositories.ts';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { GUILD_DATA_GRACE_MS, GuildDepartures } from '../../src/guilds/departures.ts';
import { KpdFeedState } from '../../src/features/kpd/feed.ts';
import { KpdKeyRecords } from '../../src/features/kpd/keys.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { capturedLog } from '../support/announcements.ts';
import { RoleGrants, RoleRules } from '../../src/features/roles/rules.ts';
import { GuildMembers } from '../../src/players/members.ts';

/** Leaving a server: its data stays through the grace period (a kick and re-invite loses nothing), then goes. */
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);

let db: Database;
let store: Store;
let repos: Repositories;

beforeEach(async () => {
  db = await openDatabase('sqlite://:memory:');
  store = await createStore('memory://', { purgeIntervalMs: 0 });
  repos = openRepositories(db, store);
});
afterEach(async () => {
  await db.close();
  await store.close();
});

async function populate(guildId: string): Promise<string> {
  const made = await repos.subscriptions.add(
    {
      guildId,
      channelId: `${guildId}-c`,
      kind: 'kpd',
      options: {},
      locale: 'en-US',
      createdBy: '1',
      createdAt: T0,
      since: T0,
      state: { status: 'active' },
    },
    'kpd:c',
    25,
  );
  if (made.status !== 'created') throw new Error('not created');
  await repos.refs.set(
    made.subscription.id,
    'map:1',
    { messageId: 'm', channelId: 'c', eventKey: 'e:1', at: T0 },
    T0,
  );
  await new KpdKeyRecords(db).set(guildId, {
    v: 1,
    kid: 'k',
    iv: 'i',
    tag: 't',
    ct: 'c',
    linkedBy: '1',
    linkedAt: T0,
  });
  await new KpdFeedState(db).set(guildId, { at: T0, calls: {} });
  const rule = await new RoleRules(db).add({
    guildId,
    kind: 'verified',
    params: {},
    roleIds: ['9'],
    createdBy: '1',
    createdAt: T0,
  });
  await new RoleGrants(db).granted(guildId, '7', '9', rule?.id ?? '', T0);
  await new GuildMembers(db).seen(guildId, '7', T0);
  return made.subscription.id;
}

describe('the data of a server the bot left', () => {
  it('is kept for the grace period, then removed with its refs, key and feed state, and logged', async () => {
    const departures = new GuildDepartures(db);
    const gone = await populate('g-gone');
    const kept = await populate('g-kept');
    await departures.left('g-gone', T0);
    const { log, lines } = capturedLog();

    expect(await departures.purge(T0 + GUILD_DATA_GRACE_MS - 1, log)).toEqual([]);
    expect(await repos.subscriptions.get(gone)).toBeDefined();

    const purged = await departures.purge(T0 + GUILD_DATA_GRACE_MS, log);
    expect(purged).toMatchObject([{ guildId: 'g-gone', leftAt: T0, subscriptions: 1, kpdKey: true }]);
    expect(await repos.subscriptions.forGuild('g-gone')).toEqual([]);
    expect(await repos.refs.get(gone, 'map:1')).toBeUndefined();
    expect(await new KpdKeyRecords(db).has('g-gone')).toBe(false);
    expect(await new KpdFeedState(db).get('g-gone')).toBeUndefined();
    expect(await departures.leftAt('g-gone')).toBeUndefined();
    expect(await new RoleRules(db).forGuild('g-gone')).toEqual([]);
    const grants = await db.kysely.selectFrom('role_grants').select('guild_id').execute();
    const members = await db.kysely.selectFrom('guild_members').select('guild_id').execute();
    expect([...grants, ...members].map((row) => row.guild_id)).toEqual(['g-kept', 'g-kept']);
    expect(lines.filter((line) => String(line.msg).startsWith('removed the data'))).toHaveLength(1);

    // Nothing of another server is touched.
    expect(await repos.subscriptions.get(kept)).toBeDefined();
    expect(await new KpdKeyRecords(db).has('g-kept')).toBe(true);
    expect(await new RoleRules(db).forGuild('g-kept')).toHaveLength(1);
  });

  it('is kept for good when the bot comes back within the grace period (kick and re-invite)', async () => {
    const departures = new GuildDepartures(db);
    await populate('g-back');
    await departures.left('g-back', T0);
    await departures.returned('g-back');
    expect(await departures.purge(T0 + 30 * DAY, capturedLog().log)).toEqual([]);
    expect(await repos.subscriptions.forGuild('g-back')).toHaveLength(1);
  });

  it('counts the grace period from the first departure, not from a later one', async () => {
    const departures = new GuildDepartures(db);
    await departures.left('g-twice', T0);
    await departures.left('g-twice', T0 + 3 * DAY);
    expect(await departures.leftAt('g-twice')).toBe(T0);
  });
});

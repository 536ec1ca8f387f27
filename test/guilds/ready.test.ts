import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRepositories } from '../../src/announcements/repositories.ts';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { startDiscordStandin, type DiscordStandin } from '../../src/dev/standin/index.ts';
import { GuildDepartures } from '../../src/guilds/departures.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { AlertRepository } from '../../src/features/alerts/store.ts';
import { RoleRules } from '../../src/features/roles/rules.ts';
import { GuildMembers } from '../../src/players/members.ts';
import { startTestBot } from '../support/stack.ts';

/**
 * A shard coming up writes down what changed while it was away: a server with subscriptions that is no
 * longer in its session was left (counted from now), and a server that is there again is struck off.
 */
describe('departures seen at READY', () => {
  let sandbox: Sandbox;
  let discord: DiscordStandin;
  let db: Database;
  let store: Store;

  beforeAll(async () => {
    sandbox = await startSandbox();
    discord = await startDiscordStandin();
    db = await openDatabase('sqlite://:memory:');
    store = await createStore('memory://', { purgeIntervalMs: 0 });
  });

  afterAll(async () => {
    await db.close();
    await store.close();
    await discord.close();
    await sandbox.close();
  });

  it('marks a subscribed server the bot is no longer in as left, and one it is in again as back', async () => {
    const here = discord.addGuild({ name: 'Still here' });
    discord.addChannel(here.id, { name: 'general' });
    const gone = '100000000000000099';
    const repos = openRepositories(db, store);
    for (const guildId of [here.id, gone]) {
      await repos.subscriptions.create({
        guildId,
        channelId: `${guildId}1`,
        kind: 'maps',
        options: {},
        locale: 'en-US',
        createdBy: '1',
        createdAt: 1,
        since: 1,
        state: { status: 'active' },
      });
    }
    const departures = new GuildDepartures(db);
    await departures.left(here.id, 5);

    const bot = await startTestBot(sandbox, discord, { store, database: db, announcements: false });
    // READY started the writes before the bot was ready; stop() waits for the writes under way (and leaves
    // the database handed in open).
    await bot.stop();
    expect(await departures.leftAt(gone)).toBeGreaterThan(5);
    expect(await departures.leftAt(here.id)).toBeUndefined();
  });

  it('marks a server with no subscription but role rules, members or alerts as left', async () => {
    const withRule = '100000000000000201';
    const withAlert = '100000000000000202';
    const withMember = '100000000000000203';
    await new RoleRules(db).add({
      guildId: withRule,
      kind: 'verified',
      params: {},
      roleIds: ['9'],
      createdBy: '1',
      createdAt: 1,
    });
    const added = await new AlertRepository(db).add(
      {
        guildId: withAlert,
        userId: '300000000000000001',
        channelId: undefined,
        skinIndex: 1,
        skinName: 'Skin',
        direction: 'below',
        threshold: 10,
        locale: 'en-US',
      },
      { user: 10, guild: 50 },
      1,
    );
    expect(added.status).toBe('created');
    await new GuildMembers(db).seen(withMember, '300000000000000001', 1);
    const departures = new GuildDepartures(db);

    const bot = await startTestBot(sandbox, discord, { store, database: db, announcements: false });
    await bot.stop();
    for (const guildId of [withRule, withAlert, withMember])
      expect(await departures.leftAt(guildId), guildId).toBeDefined();
  });
});

import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { SnapshotStore } from '../../../src/players/snapshots.ts';
import type { SnapshotStats } from '../../../src/players/stats.ts';
import { accountLinks } from '../../../src/players/accounts.ts';
import { rolesFollowRefresh, syncAfterLinkChange } from '../../../src/features/roles/follow-account.ts';
import { RoleSyncer } from '../../../src/features/roles/sync.ts';
import { RoleRules } from '../../../src/features/roles/rules.ts';
import {
  commandOptions,
  useWorldPerTest,
  type OptionValue,
  type Process,
  routeCommands,
} from '../../support/announcements.ts';
import { command as rolesCommand } from '../../../commands/roles.ts';
import { buttonLabelled } from '../../support/tokens.ts';

/**
 * Roles from verified accounts, through the Discord stand-in (role routes, hierarchy, 50013, 10007,
 * 10011) and the bot's real command and sync code.
 */
// Discord's role routes allow a few changes at a time (10 per 10 s by default); here 5 per 50 ms, so that
// the syncs wait for the window as they would, in a fraction of the time.
routeCommands(rolesCommand);

const fixture = useWorldPerTest({ discord: { memberRolesRateLimit: { limit: 5, windowMs: 50 } } });
const ADMIN = '300000000000000900';

function stats(overrides: Partial<SnapshotStats> = {}): SnapshotStats {
  return {
    score: 0,
    kills: 0,
    deaths: 0,
    games: 0,
    wins: 0,
    level: 5,
    kr: 0,
    clan: 'Vortex',
    ranked: [],
    ...overrides,
  };
}

/** A server where the bot holds Manage Roles above the game roles, and an admin above them too. */
async function setUp() {
  const { world } = fixture;
  const s = world.discord;
  const g = world.guildId;
  const botTop = s.addRole(g, {
    name: 'killfeed',
    permissions: PermissionFlagsBits.ManageRoles,
    position: 20,
  });
  const botRoles = s.memberRoles(g, s.botUserId) ?? [];
  s.setMemberRoles(g, s.botUserId, [...botRoles, botTop.id]);
  const adminRole = s.addRole(g, { name: 'admins', position: 30 });
  s.addMember(g, { id: ADMIN, username: 'admin', roles: [adminRole.id] });
  const verified = s.addRole(g, { name: 'Verified', position: 5 });
  const clan = s.addRole(g, { name: 'Vortex', position: 6 });
  const diamond = s.addRole(g, { name: 'Diamond', position: 7 });
  const veteran = s.addRole(g, { name: 'Veteran', position: 8 });
  const manual = s.addRole(g, { name: 'Manual', position: 4 });
  const high = s.addRole(g, { name: 'Above the bot', position: 25 });
  const booster = s.addRole(g, { name: 'Booster', position: 3, managed: true });
  const process = await fixture.start({ commands: true });
  return {
    s,
    g,
    process,
    botRoles,
    roles: { verified, clan, diamond, veteran, manual, high, booster, adminRole },
  };
}

function run(sub: string, values: Record<string, OptionValue> = {}, userId = ADMIN) {
  const { world } = fixture;
  return world.discord
    .invokeCommand({
      name: 'roles',
      guildId: world.guildId,
      options: commandOptions('roles', sub, values),
      user: { id: userId, username: 'admin' },
      memberPermissions:
        PermissionFlagsBits.ManageRoles | PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ViewChannel,
    })
    .final();
}

/** A linked member with numbers kept, seen in the server. */
async function linkedMember(
  userId: string,
  playerName: string,
  numbers: SnapshotStats,
  roles: string[] = [],
) {
  const { world } = fixture;
  world.discord.addMember(world.guildId, { id: userId, username: playerName, roles });
  await accountLinks({ db: world.db }).set(userId, { playerName, linkedAt: world.clock.now() });
  await world.db.kysely
    .insertInto('guild_members')
    .values({ guild_id: world.guildId, user_id: userId, seen_at: world.clock.now() })
    .execute();
  await new SnapshotStore(world.db).capture({
    playerId: Number(userId.slice(-6)),
    playerName,
    at: world.clock.now(),
    stats: numbers,
  });
}

function syncer(process: Process) {
  const { db, clock, log } = process.services;
  return new RoleSyncer({ db, rest: process.client.rest, clock, log });
}

describe('/roles', () => {
  it('adds each kind of rule, and a sync gives and takes roles as accounts change, leaving other roles alone', async () => {
    const { s, g, process, roles } = await setUp();
    expect((await run('add', { kind: 'verified', role: roles.verified.id })).embeds[0]?.description).toMatch(
      /Rule added/,
    );
    await run('add', { kind: 'clan', role: roles.clan.id, clan: fixture.world.sandbox.world.samples.clan });
    await run('add', { kind: 'ranked', role: roles.diamond.id, threshold: 1500, region: 3 });
    await run('add', { kind: 'level', role: roles.veteran.id, threshold: 50 });
    const clanName = (await new RoleRules(fixture.world.db).forGuild(g)).find((r) => r.kind === 'clan')
      ?.params.clan;
    expect(clanName).toBe(fixture.world.sandbox.world.samples.clan);

    const ranked = [{ region: 3, mmr: 1600, wins: 6, losses: 2, kills: 1, deaths: 1, assists: 0, score: 0 }];
    await linkedMember('300000000000000101', 'Ann', stats({ clan: clanName ?? '', ranked, level: 60 }), [
      roles.manual.id,
    ]);
    await linkedMember('300000000000000102', 'Bob', stats({ clan: 'Other', level: 3 }));

    const preview = await run('preview');
    expect(preview.embeds[0]?.description).toMatch(/5 roles would be added, 0 removed/);
    expect(s.roleChanges(g)).toEqual([]);
    const synced = await run('sync');
    expect(synced.embeds[0]?.description).toMatch(/5 roles added, 0 removed/);
    // The preview said exactly what the sync did.
    const previewLines = (preview.embeds[0]?.description ?? '').split('\n').slice(1);
    const syncLines = (synced.embeds[0]?.description ?? '').split('\n').slice(1);
    expect(syncLines).toEqual(previewLines);
    const ann = s.memberRoles(g, '300000000000000101') ?? [];
    expect(new Set(ann)).toEqual(
      new Set([roles.manual.id, roles.verified.id, roles.clan.id, roles.diamond.id, roles.veteran.id]),
    );
    expect(s.memberRoles(g, '300000000000000102')).toEqual([roles.verified.id]);
    // Every change names its rule in the audit log.
    expect(
      s.roleChanges(g).every((change) => /^killfeed role rule [a-z0-9]{6} \(/.test(change.reason ?? '')),
    ).toBe(true);

    // Ann's MMR drops and she leaves the clan: the background refresh's numbers take those roles.
    const refreshed = rolesFollowRefresh(process.services, process.client.rest);
    await refreshed({
      player_id: 101,
      player_name: 'Ann',
      clan: '',
      level: 60,
      ranked: [{ region: 3, mmr: 1400 }],
    });
    expect(new Set(s.memberRoles(g, '300000000000000101'))).toEqual(
      new Set([roles.manual.id, roles.verified.id, roles.veteran.id]),
    );

    // Ann unlinks: every rule role goes, the manual role stays.
    await accountLinks({ db: fixture.world.db }).delete('300000000000000101');
    await syncAfterLinkChange(process.services, process.client.rest, '300000000000000101', g);
    expect(s.memberRoles(g, '300000000000000101')).toEqual([roles.manual.id]);

    // Removing the verified rule takes back the role it gave Bob.
    const verifiedRule = (await new RoleRules(fixture.world.db).forGuild(g)).find(
      (r) => r.kind === 'verified',
    );
    const removed = await run('remove', { id: verifiedRule?.id ?? '' });
    expect(removed.embeds[0]?.description).toMatch(/1 taken back/);
    expect(s.memberRoles(g, '300000000000000102')).toEqual([]);
  });

  it('refuses, before any change, roles it could not or should not give', async () => {
    const { s, g, roles, botRoles } = await setUp();
    const refusal = async (values: Record<string, OptionValue>, userId = ADMIN) =>
      (await run('add', { kind: 'verified', ...values }, userId)).embeds[0]?.description ?? '';
    expect(await refusal({ role: roles.high.id })).toMatch(/not below my highest role/);
    expect(await refusal({ role: roles.booster.id })).toMatch(/managed by an integration/);
    expect(await refusal({ role: g })).toMatch(/@everyone/);
    expect(await refusal({ role: roles.verified.id, role2: roles.high.id })).toMatch(
      /not below my highest role/,
    );
    // A moderator whose own highest role is below the role.
    const low = s.addRole(g, { name: 'helpers', position: 2 });
    s.addMember(g, { id: '300000000000000901', username: 'helper', roles: [low.id] });
    expect(await refusal({ role: roles.verified.id }, '300000000000000901')).toMatch(
      /not below your highest role/,
    );
    expect((await run('add', { kind: 'clan', role: roles.clan.id })).embeds[0]?.description).toMatch(
      /needs the clan/,
    );
    expect((await run('add', { kind: 'level', role: roles.veteran.id })).embeds[0]?.description).toMatch(
      /threshold/,
    );
    // Without Manage Roles for the bot.
    s.setMemberRoles(g, s.botUserId, botRoles);
    expect(await refusal({ role: roles.verified.id })).toMatch(/I do not have Manage Roles/);
    expect(await new RoleRules(fixture.world.db).forGuild(g)).toEqual([]);
    expect(s.roleChanges(g)).toEqual([]);
  });

  it('handles a member who left and a deleted role once each, and two syncs at once change each role once', async () => {
    const { s, g, process, roles } = await setUp();
    await run('add', { kind: 'verified', role: roles.verified.id });
    await run('add', { kind: 'level', role: roles.veteran.id, threshold: 1 });
    for (let i = 0; i < 6; i += 1) await linkedMember(`30000000000000020${i}`, `P${i}`, stats());
    const [first, second] = await Promise.all([syncer(process).sync(g), syncer(process).sync(g)]);
    expect(first.changes.length + second.changes.length).toBe(12);
    expect(s.roleChanges(g)).toHaveLength(12);
    expect(s.rateLimitHits().memberRoles).toBe(0);

    s.removeMember(g, '300000000000000200');
    s.deleteRole(g, roles.veteran.id);
    await linkedMember('300000000000000299', 'Late', stats());
    const summary = await syncer(process).sync(g);
    expect(summary.left).toBe(1);
    expect(summary.disabledRules).toHaveLength(1);
    const list = await run('list');
    expect(list.embeds[0]?.description).toMatch(/a role it names was deleted/);
    // The member who left is forgotten: the next sync does not ask about them again.
    const again = await syncer(process).sync(g);
    expect(again.left).toBe(0);
    expect(again.changes).toEqual([]);
  });

  it('saves a rule naming a dangerous role only when its author confirms it in time, and marks it in /roles list', async () => {
    const { s, g } = await setUp();
    const mods = s.addRole(g, {
      name: 'Mods',
      permissions: PermissionFlagsBits.Administrator | PermissionFlagsBits.BanMembers,
      position: 9,
    });
    const saved = async () => new RoleRules(fixture.world.db).forGuild(g);
    const asking = await run('add', { kind: 'verified', role: mods.id });
    expect(asking.embeds[0]?.description).toMatch(/Administrator, Ban Members/);
    expect(await saved()).toEqual([]);
    const confirm = buttonLabelled(asking, 'Save the rule').custom_id;
    expect(confirm).toMatch(/^roles:confirm:/);
    const click = (customId: string, userId: string, message = asking) =>
      s
        .clickButton(message, customId, {
          user: { id: userId, username: 'someone' },
          memberPermissions:
            PermissionFlagsBits.ManageRoles |
            PermissionFlagsBits.ManageGuild |
            PermissionFlagsBits.ViewChannel,
        })
        .final();

    // Another manager cannot confirm it.
    s.addMember(g, { id: '300000000000000902', username: 'other', roles: [] });
    expect((await click(confirm, '300000000000000902')).embeds[0]?.description).toMatch(
      /Only the member who asked/,
    );
    expect(await saved()).toEqual([]);
    // Past its 10 minutes, nobody can.
    fixture.world.clock.set(fixture.world.clock.now() + 11 * 60_000);
    expect((await click(confirm, ADMIN)).embeds[0]?.description).toMatch(/expired/i);
    expect(await saved()).toEqual([]);

    // Asked again, cancelled: nothing saved; asked again, confirmed: saved.
    const again = await run('add', { kind: 'verified', role: mods.id });
    const cancel = buttonLabelled(again, 'Cancel').custom_id;
    expect((await click(cancel, ADMIN, again)).embeds[0]?.description).toMatch(/Nothing was saved/);
    expect(await saved()).toEqual([]);
    const third = await run('add', { kind: 'verified', role: mods.id });
    const confirmed = await click(buttonLabelled(third, 'Save the rule').custom_id, ADMIN, third);
    expect(confirmed.embeds[0]?.description).toMatch(/Rule added/);
    expect(confirmed.components).toEqual([]);
    expect((await saved()).map((rule) => rule.roleIds)).toEqual([[mods.id]]);

    const list = await run('list');
    expect(list.embeds[0]?.description).toMatch(/⚠ gives Administrator, Ban Members/);
  });
});

import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { PlayerProfile } from '../../../src/api/schemas/index.ts';
import { DAY_MS, SnapshotStore } from '../../../src/players/snapshots.ts';
import type { SnapshotStats } from '../../../src/players/stats.ts';
import { accountLinks } from '../../../src/players/accounts.ts';
import { rolesFollowRefresh } from '../../../src/features/roles/follow-account.ts';
import { RoleRules, type RuleKind } from '../../../src/features/roles/rules.ts';
import { RoleSyncer } from '../../../src/features/roles/sync.ts';
import { useWorldPerTest, type Process } from '../../support/announcements.ts';

/**
 * Roles follow the player (its id), not the name: another player under the linked name suspends the
 * link, a rename keeps it, and numbers of a vanished account or a month old give no clan, MMR or level
 * role (the `verified` role stays while the link stands). Through the Discord stand-in's role routes and
 * the sandbox (the turf API names a player by its id).
 */
const fixture = useWorldPerTest();
const USER = '300000000000000301';

function stats(overrides: Partial<SnapshotStats> = {}): SnapshotStats {
  return {
    score: 0,
    kills: 0,
    deaths: 0,
    games: 0,
    wins: 0,
    level: 60,
    kr: 0,
    clan: '',
    ranked: [],
    ...overrides,
  };
}

/** A server with a `verified` rule and a `level ≥ 50` rule, and the user seen there. */
async function setUp() {
  const { world } = fixture;
  const s = world.discord;
  const g = world.guildId;
  const botTop = s.addRole(g, {
    name: 'killfeed',
    permissions: PermissionFlagsBits.ManageRoles,
    position: 20,
  });
  s.setMemberRoles(g, s.botUserId, [...(s.memberRoles(g, s.botUserId) ?? []), botTop.id]);
  const verified = s.addRole(g, { name: 'Verified', position: 5 });
  const veteran = s.addRole(g, { name: 'Veteran', position: 6 });
  const rules = new RoleRules(world.db);
  const rule = (kind: RuleKind, roleId: string, threshold?: number) =>
    rules.add({
      guildId: g,
      kind,
      params: threshold === undefined ? {} : { threshold },
      roleIds: [roleId],
      createdBy: '300000000000000900',
      createdAt: world.clock.now(),
    });
  await rule('verified', verified.id);
  await rule('level', veteran.id, 50);
  s.addMember(g, { id: USER, username: 'ann' });
  await world.db.kysely
    .insertInto('guild_members')
    .values({ guild_id: g, user_id: USER, seen_at: world.clock.now() })
    .execute();
  const process = await fixture.start();
  return { s, g, process, verified, veteran };
}

function syncer(process: Process) {
  const { db, clock, log } = process.services;
  return new RoleSyncer({ db, rest: process.client.rest, clock, log });
}

async function keep(playerId: number, playerName: string, at: number, numbers = stats()) {
  await new SnapshotStore(fixture.world.db).capture({ playerId, playerName, at, stats: numbers });
}

const profile = (playerId: number, playerName: string, level: number) =>
  ({ player_id: playerId, player_name: playerName, clan: '', level, ranked: [] }) as unknown as PlayerProfile;

describe('roles follow the player, not the name', () => {
  it('suspends the link when a refresh finds a different player under the linked name', async () => {
    const { s, g, process, verified, veteran } = await setUp();
    const now = fixture.world.clock.now();
    await accountLinks({ db: fixture.world.db }).set(USER, {
      playerName: 'Ann',
      playerId: 101,
      linkedAt: now,
    });
    await keep(101, 'Ann', now);
    await syncer(process).sync(g);
    expect(new Set(s.memberRoles(g, USER))).toEqual(new Set([verified.id, veteran.id]));

    // Ann's name now belongs to player 202 (level 80): it does not take over the link's roles.
    await rolesFollowRefresh(process.services, process.client.rest)(profile(202, 'Ann', 80), 'Ann');
    expect(s.memberRoles(g, USER)).toEqual([]);
    const link = await accountLinks({ db: fixture.world.db }).get(USER);
    expect(link?.suspendedAt).toBe(now);
    // A full sync keeps it that way: a suspended link is no link.
    await syncer(process).sync(g);
    expect(s.memberRoles(g, USER)).toEqual([]);
  });

  it('keeps the link of a renamed account under its new name, and its roles', async () => {
    const { s, g, process, verified, veteran } = await setUp();
    const sample = await process.services.api.call('player', {
      playerName: fixture.world.sandbox.world.samples.player,
    });
    // The read above kept this hour's point (the sample's own numbers): ours go in the next hour.
    await fixture.world.clock.advance(3_600_000);
    const now = fixture.world.clock.now();
    // Linked when the player was called "OldName"; the game now knows its id by the sample's name.
    await accountLinks({ db: fixture.world.db }).set(USER, {
      playerName: 'OldName',
      playerId: sample.player_id,
      linkedAt: now,
    });
    await keep(sample.player_id, 'OldName', now);
    await syncer(process).sync(g);
    expect(new Set(s.memberRoles(g, USER))).toEqual(new Set([verified.id, veteran.id]));

    // The refresh finds no "OldName": the turf API resolves the id to its current name.
    const refreshed = rolesFollowRefresh(process.services, process.client.rest);
    await refreshed.missing?.('OldName');
    const link = await accountLinks({ db: fixture.world.db }).get(USER);
    expect(link).toMatchObject({ playerName: sample.player_name, playerId: sample.player_id });
    expect(link?.missingAt).toBeUndefined();
    expect(new Set(s.memberRoles(g, USER))).toEqual(new Set([verified.id, veteran.id]));
  });

  it('gives no level role from a vanished account or from numbers a month old; the verified role stays', async () => {
    const { s, g, process, verified } = await setUp();
    const { clock, db } = fixture.world;
    const now = clock.now();
    // A snapshot of 300 days ago is all the bot has.
    await accountLinks({ db }).set(USER, { playerName: 'Old', playerId: 303, linkedAt: now - 300 * DAY_MS });
    await keep(303, 'Old', now - 300 * DAY_MS);
    await syncer(process).sync(g);
    expect(s.memberRoles(g, USER)).toEqual([verified.id]);

    // A fresh snapshot gives the level role; then the account vanishes (no player of that name, no id).
    await keep(303, 'Old', now);
    await syncer(process).sync(g);
    expect(s.memberRoles(g, USER)).toHaveLength(2);
    await rolesFollowRefresh(process.services, process.client.rest).missing?.('Old');
    expect((await accountLinks({ db }).get(USER))?.missingAt).toBe(now);
    expect(s.memberRoles(g, USER)).toEqual([verified.id]);
    await syncer(process).sync(g);
    expect(s.memberRoles(g, USER)).toEqual([verified.id]);
  });
});

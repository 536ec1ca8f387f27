import { once } from 'node:events';
import {
  Events,
  PermissionFlagsBits,
  REST,
  RESTEvents,
  Routes,
  type Client,
  type Guild,
  type GuildMember,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startDiscordStandin,
  type DiscordStandin,
  type DiscordStandinOptions,
} from '../../../src/dev/standin/index.ts';
import { readyClient } from '../../support/standin.ts';

let standin: DiscordStandin | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.destroy();
  await standin?.close();
  client = undefined;
  standin = undefined;
});

/**
 * A guild where the bot may give roles: it holds a Manage Roles role at position 10, above a plain rank
 * role at 5, and one member without roles.
 */
async function setUp(options: DiscordStandinOptions = {}) {
  const s = await startDiscordStandin(options);
  standin = s;
  const guild = s.addGuild({ name: 'Clan Hall' });
  const manager = s.addRole(guild.id, {
    name: 'killfeed-roles',
    permissions: PermissionFlagsBits.ManageRoles,
    position: 10,
  });
  s.setMemberRoles(guild.id, s.botUserId, [guild.botRoleId, manager.id]);
  const rank = s.addRole(guild.id, { name: 'Diamond', position: 5 });
  const member = s.addMember(guild.id, { username: 'sniper' });
  return { s, guild, manager, rank, member };
}

function memberRole(
  s: DiscordStandin,
  method: 'PUT' | 'DELETE',
  guildId: string,
  userId: string,
  roleId: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${s.restUrl}/v10/guilds/${guildId}/members/${userId}/roles/${roleId}`, {
    method,
    headers: { Authorization: `Bot ${s.token}`, ...headers },
  });
}

async function errorOf(response: Promise<Response>): Promise<{ status: number; body: unknown }> {
  const res = await response;
  return { status: res.status, body: await res.json() };
}

const missingPermissions = { status: 403, body: { code: 50013, message: 'Missing Permissions' } };

describe('adding and removing a member role', () => {
  it('answers 204, idempotently, and GET member shows the roles', async () => {
    const { s, guild, rank, member } = await setUp();
    for (let i = 0; i < 2; i += 1) {
      expect((await memberRole(s, 'PUT', guild.id, member.userId, rank.id)).status).toBe(204);
    }
    expect(s.memberRoles(guild.id, member.userId)).toEqual([rank.id]);
    const fetched = await fetch(`${s.restUrl}/v10/guilds/${guild.id}/members/${member.userId}`, {
      headers: { Authorization: `Bot ${s.token}` },
    });
    expect(((await fetched.json()) as { roles: string[] }).roles).toEqual([rank.id]);
    for (let i = 0; i < 2; i += 1) {
      expect((await memberRole(s, 'DELETE', guild.id, member.userId, rank.id)).status).toBe(204);
    }
    expect(s.memberRoles(guild.id, member.userId)).toEqual([]);
    // Only the requests that changed something are in the log.
    expect(s.roleChanges(guild.id).map((c) => [c.action, c.userId, c.roleId])).toEqual([
      ['add', member.userId, rank.id],
      ['remove', member.userId, rank.id],
    ]);
  });

  it('answers Unknown Guild, Unknown Member and Unknown Role with 404 and Discord error bodies', async () => {
    const { s, guild, rank, member } = await setUp();
    expect(await errorOf(memberRole(s, 'PUT', '123456789012345678', member.userId, rank.id))).toEqual({
      status: 404,
      body: { code: 10004, message: 'Unknown Guild' },
    });
    const unknownMember = { status: 404, body: { code: 10007, message: 'Unknown Member' } };
    expect(await errorOf(memberRole(s, 'PUT', guild.id, '999999999999999999', rank.id))).toEqual(
      unknownMember,
    );
    const unknownRole = { status: 404, body: { code: 10011, message: 'Unknown Role' } };
    expect(await errorOf(memberRole(s, 'DELETE', guild.id, member.userId, '999999999999999999'))).toEqual(
      unknownRole,
    );

    const leaver = s.addMember(guild.id, { roles: [rank.id] });
    s.removeMember(guild.id, leaver.userId);
    expect(s.memberRoles(guild.id, leaver.userId)).toBeNull();
    expect(await errorOf(memberRole(s, 'DELETE', guild.id, leaver.userId, rank.id))).toEqual(unknownMember);

    expect((await memberRole(s, 'PUT', guild.id, member.userId, rank.id)).status).toBe(204);
    s.deleteRole(guild.id, rank.id);
    expect(s.memberRoles(guild.id, member.userId)).toEqual([]);
    expect(await errorOf(memberRole(s, 'PUT', guild.id, member.userId, rank.id))).toEqual(unknownRole);
    expect(s.roleChanges()).toHaveLength(1);
  });

  it('refuses with 50013 when the bot lacks Manage Roles, and Administrator is enough', async () => {
    const { s, guild, rank, member } = await setUp();
    s.setMemberRoles(guild.id, s.botUserId, [guild.botRoleId]);
    expect(await errorOf(memberRole(s, 'PUT', guild.id, member.userId, rank.id))).toEqual(missingPermissions);
    const admin = s.addRole(guild.id, {
      name: 'admin',
      permissions: PermissionFlagsBits.Administrator,
      position: 8,
    });
    s.setMemberRoles(guild.id, s.botUserId, [guild.botRoleId, admin.id]);
    expect((await memberRole(s, 'PUT', guild.id, member.userId, rank.id)).status).toBe(204);
    expect(s.memberRoles(guild.id, member.userId)).toEqual([rank.id]);
  });

  it('refuses with 50013 a role at or above the bot highest role, and gives one just below', async () => {
    const { s, guild, manager, rank, member } = await setUp();
    s.editRole(guild.id, rank.id, { position: manager.position });
    expect(await errorOf(memberRole(s, 'PUT', guild.id, member.userId, rank.id))).toEqual(missingPermissions);
    s.editRole(guild.id, rank.id, { position: manager.position + 1 });
    expect(await errorOf(memberRole(s, 'PUT', guild.id, member.userId, rank.id))).toEqual(missingPermissions);
    expect(await errorOf(memberRole(s, 'DELETE', guild.id, member.userId, rank.id))).toEqual(
      missingPermissions,
    );
    s.editRole(guild.id, rank.id, { position: manager.position - 1 });
    expect((await memberRole(s, 'PUT', guild.id, member.userId, rank.id)).status).toBe(204);
  });

  it('refuses with 50013 managed roles (a bot role, the booster role) and @everyone', async () => {
    const { s, guild, member } = await setUp();
    const booster = s.addRole(guild.id, { name: 'Server Booster', managed: true, position: 2 });
    expect(booster.managed).toBe(true);
    for (const roleId of [guild.botRoleId, booster.id, guild.id]) {
      expect(await errorOf(memberRole(s, 'PUT', guild.id, member.userId, roleId))).toEqual(
        missingPermissions,
      );
    }
    expect(await errorOf(memberRole(s, 'DELETE', guild.id, s.botUserId, guild.botRoleId))).toEqual(
      missingPermissions,
    );
    expect(s.roleChanges()).toEqual([]);
  });

  it('records the audit log reason URL-decoded, as discord.js sends it', async () => {
    const { s, guild, rank, member } = await setUp();
    const rest = new REST({ api: s.restUrl }).setToken(s.token);
    const reason = 'Verified: Añjo 名前 100% / rank=Diamond';
    await rest.put(Routes.guildMemberRole(guild.id, member.userId, rank.id), { reason });
    await rest.delete(Routes.guildMemberRole(guild.id, member.userId, rank.id));
    expect(s.roleChanges(guild.id).map((c) => [c.action, c.reason])).toEqual([
      ['add', reason],
      ['remove', null],
    ]);
    expect(s.roleChanges('123')).toEqual([]);
  });
});

describe('roles as discord.js sees them', () => {
  it('caches positions, managed flags and the bot highest role, and fetches them again', async () => {
    const { s, guild: g, manager, rank } = await setUp();
    const booster = s.addRole(g.id, { name: 'Server Booster', managed: true, position: 2 });
    client = await readyClient(s);
    const guild = client.guilds.cache.get(g.id) as Guild;
    // discord.js keeps Discord's position as rawPosition (`position` is its rank among the cached roles).
    expect(guild.roles.cache.get(rank.id)?.rawPosition).toBe(5);
    expect(guild.roles.cache.get(g.botRoleId)).toMatchObject({ managed: true, rawPosition: 1 });
    expect(guild.roles.cache.get(booster.id)?.tags?.premiumSubscriberRole).toBe(true);
    expect(guild.members.me?.roles.highest.id).toBe(manager.id);
    expect(guild.members.me?.permissions.has(PermissionFlagsBits.ManageRoles)).toBe(true);

    const fetched = await guild.roles.fetch(undefined, { force: true });
    expect(fetched.map((r) => [r.name, r.rawPosition, r.managed]).sort()).toEqual(
      [
        ['@everyone', 0, false],
        ['killfeed', 1, true],
        ['Server Booster', 2, true],
        ['Diamond', 5, false],
        ['killfeed-roles', 10, false],
      ].sort(),
    );
  });

  it('adds a role through GuildMember.roles and tells the bot when its own roles change', async () => {
    const { s, guild: g, manager, rank, member } = await setUp();
    client = await readyClient(s);
    const guild = client.guilds.cache.get(g.id) as Guild;
    const fetched = await guild.members.fetch(member.userId);
    await fetched.roles.add(rank.id, 'linked account');
    const again = await guild.members.fetch({ user: member.userId, force: true });
    expect([...again.roles.cache.keys()].sort()).toEqual([g.id, rank.id].sort());
    expect(s.roleChanges()).toMatchObject([{ action: 'add', reason: 'linked account' }]);

    const updated = once(client, Events.GuildMemberUpdate) as Promise<[GuildMember, GuildMember]>;
    s.setMemberRoles(g.id, s.botUserId, [g.botRoleId]);
    const [, me] = await updated;
    expect(me.id).toBe(s.botUserId);
    expect(guild.members.me?.roles.cache.has(manager.id)).toBe(false);
    await expect(fetched.roles.remove(rank.id)).rejects.toMatchObject({ code: 50013, status: 403 });
  });

  it('creates a role without a position just above @everyone, moving the others up', async () => {
    const s = await startDiscordStandin();
    standin = s;
    const guild = s.addGuild({});
    const first = s.addRole(guild.id, { name: 'first' });
    const second = s.addRole(guild.id, { name: 'second' });
    expect(second.position).toBe(1);
    const roles = (await (
      await fetch(`${s.restUrl}/v10/guilds/${guild.id}/roles`, {
        headers: { Authorization: `Bot ${s.token}` },
      })
    ).json()) as Array<{ id: string; position: number; managed: boolean }>;
    expect(Object.fromEntries(roles.map((r) => [r.id, r.position]))).toEqual({
      [guild.id]: 0,
      [second.id]: 1,
      [first.id]: 2,
      [guild.botRoleId]: 3,
    });
  });
});

describe('the member roles rate limit', () => {
  it('lets discord.js, which waits on the headers, send a burst without one 429', async () => {
    // A window long enough that ten requests fill the bucket within it even on a loaded machine (with 50 ms,
    // ten slow requests could spread over several windows, and discord.js then had nothing to wait for).
    const { s, guild, rank } = await setUp({ memberRolesRateLimit: { limit: 10, windowMs: 1_500 } });
    const members = Array.from({ length: 20 }, () => s.addMember(guild.id));
    const rest = new REST({ api: s.restUrl }).setToken(s.token);
    let waits = 0;
    rest.on(RESTEvents.RateLimited, () => (waits += 1));
    await Promise.all(
      members.map((m) => rest.put(Routes.guildMemberRole(guild.id, m.userId, rank.id), { reason: 'bench' })),
    );
    expect(s.roleChanges(guild.id)).toHaveLength(20);
    expect(s.rateLimitHits()).toEqual({ global: 0, memberRoles: 0 });
    expect(s.requests().filter((r) => r.status === 429)).toEqual([]);
    // The bucket filled: discord.js held requests back rather than being refused.
    expect(waits).toBeGreaterThan(0);
  });

  it('answers a raw burst over the limit 429 with Discord headers and retry_after, per guild', async () => {
    let now = 0;
    const { s, guild, rank, member } = await setUp({
      memberRolesRateLimit: { limit: 5, windowMs: 200, now: () => now },
    });
    const burst = await Promise.all(
      Array.from({ length: 8 }, () => memberRole(s, 'PUT', guild.id, member.userId, rank.id)),
    );
    const ok = burst.filter((r) => r.status === 204);
    const limited = burst.filter((r) => r.status === 429);
    expect(ok).toHaveLength(5);
    expect(limited).toHaveLength(3);
    expect(ok.map((r) => r.headers.get('x-ratelimit-remaining')).sort()).toEqual(['0', '1', '2', '3', '4']);
    const bucket = ok[0]?.headers.get('x-ratelimit-bucket');
    expect(bucket).toBeTruthy();
    const refused = limited[0]!;
    expect(refused.headers.get('x-ratelimit-bucket')).toBe(bucket);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('5');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset-after')).toBe('0.200');
    expect(refused.headers.get('x-ratelimit-scope')).toBe('user');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      message: 'You are being rate limited.',
      code: 0,
      retry_after: 0.2,
      global: false,
    });

    // DELETE shares the bucket; another guild has its own window.
    const removal = await memberRole(s, 'DELETE', guild.id, member.userId, rank.id);
    expect(removal.status).toBe(429);
    const other = s.addGuild({});
    const elsewhere = await memberRole(s, 'PUT', other.id, s.botUserId, other.id);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(elsewhere.headers.get('x-ratelimit-bucket')).toBe(bucket);

    now += 200;
    const later = await memberRole(s, 'DELETE', guild.id, member.userId, rank.id);
    expect(later.status).toBe(204);
    expect(later.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(s.rateLimitHits()).toEqual({ global: 0, memberRoles: 4 });
  });
});

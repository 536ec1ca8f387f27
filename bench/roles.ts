import { PermissionFlagsBits, REST } from 'discord.js';
import { pino } from 'pino';
import { systemClock } from '../src/core/clock.ts';
import { openDatabase } from '../src/db/index.ts';
import { startDiscordStandin } from '../src/dev/standin/index.ts';
import { SnapshotStore } from '../src/players/snapshots.ts';
import type { SnapshotStats } from '../src/players/stats.ts';
import { accountLinks } from '../src/players/accounts.ts';
import { RoleRules } from '../src/features/roles/rules.ts';
import { RoleSyncer } from '../src/features/roles/sync.ts';
import type { Figures } from './client.ts';

const MEMBERS = 1_000;
/** Discord's role routes, scaled ten times faster so that the run takes seconds: 10 per second. */
const ROLE_LIMIT = { limit: 10, windowMs: 1_000 };

/**
 * `/roles sync` of one server with 1,000 linked members and three rules (verified, clan, level), through
 * the Discord stand-in, which enforces a per-guild window on the role routes as Discord does: the time
 * taken against what the window allows for the changes made, the requests made, and 429s (goal 0).
 */
export async function benchRoles(): Promise<Figures> {
  const discord = await startDiscordStandin({ memberRolesRateLimit: ROLE_LIMIT });
  const db = await openDatabase('sqlite://:memory:');
  try {
    const guild = discord.addGuild({ name: 'Clan Hall' });
    const g = guild.id;
    const top = discord.addRole(g, {
      name: 'killfeed',
      permissions: PermissionFlagsBits.ManageRoles,
      position: 50,
    });
    discord.setMemberRoles(g, discord.botUserId, [
      ...(discord.memberRoles(g, discord.botUserId) ?? []),
      top.id,
    ]);
    const verified = discord.addRole(g, { name: 'Verified', position: 10 });
    const clan = discord.addRole(g, { name: 'Vortex', position: 11 });
    const veteran = discord.addRole(g, { name: 'Veteran', position: 12 });
    const rules = new RoleRules(db);
    const base = { guildId: g, createdBy: '1', createdAt: Date.now() };
    await rules.add({ ...base, kind: 'verified', params: {}, roleIds: [verified.id] });
    await rules.add({ ...base, kind: 'clan', params: { clan: 'Vortex' }, roleIds: [clan.id] });
    await rules.add({ ...base, kind: 'level', params: { threshold: 60 }, roleIds: [veteran.id] });

    const links = accountLinks({ db });
    const snapshots = new SnapshotStore(db);
    const now = Date.now();
    for (let i = 0; i < MEMBERS; i += 1) {
      const userId = String(400_000_000_000_000_000n + BigInt(i));
      // As after earlier syncs: most members hold what the rules give them; one in eight has just linked
      // (no role yet), one in twenty has dropped below the level rule (still holds its role).
      const level = i % 7 === 0 ? 80 : 20;
      const inClan = i % 4 === 0;
      const fresh = i % 8 === 0;
      const roles = fresh
        ? []
        : [verified.id, ...(inClan ? [clan.id] : []), ...(level >= 60 || i % 20 === 1 ? [veteran.id] : [])];
      discord.addMember(g, { id: userId, username: `m${i}`, roles });
      const playerName = `Player${i}`;
      await links.set(userId, { playerName, linkedAt: now });
      await db.kysely
        .insertInto('guild_members')
        .values({ guild_id: g, user_id: userId, seen_at: now })
        .execute();
      const stats: SnapshotStats = {
        score: 0,
        kills: 0,
        deaths: 0,
        games: 0,
        wins: 0,
        level,
        kr: 0,
        clan: inClan ? 'Vortex' : '',
        ranked: [],
      };
      await snapshots.capture({ playerId: i + 1, playerName, at: now, stats });
    }

    const rest = new REST({ api: discord.restUrl }).setToken(discord.token);
    const syncer = new RoleSyncer({ db, rest, clock: systemClock, log: pino({ level: 'silent' }) });
    const before = discord.requests().length;
    const preview = await syncer.sync(g, { dryRun: true });
    const previewRequests = discord.requests().length - before;
    const started = performance.now();
    const summary = await syncer.sync(g);
    const ms = performance.now() - started;
    const requests = discord.requests().length - before - previewRequests;
    const changes = summary.changes.length;
    // The window allows `limit` changes per `windowMs`: the least time these changes can take.
    const allowedMs = Math.max(0, Math.ceil(changes / ROLE_LIMIT.limit) - 1) * ROLE_LIMIT.windowMs;
    const again = await syncer.sync(g);
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
    return {
      'members / rules': `${MEMBERS} / 3`,
      'role window (Discord 10 per 10 s, scaled 10x)': `${ROLE_LIMIT.limit} per ${ROLE_LIMIT.windowMs} ms`,
      'changes: added / removed (preview planned the same)': `${summary.changes.filter((c) => c.action === 'add').length} / ${summary.changes.filter((c) => c.action === 'remove').length} (${preview.changes.length === changes ? 'yes' : 'no'})`,
      'requests: member reads + role changes (preview: reads only)': `${requests} (${previewRequests})`,
      'sync time, ms': Math.round(ms),
      'least time the window allows for these changes, ms': allowedMs,
      'sync time / least time': allowedMs === 0 ? '—' : (ms / allowedMs).toFixed(2),
      'at Discord’s real 10 per 10 s, estimated, min': ((Math.ceil(changes / 10) * 10) / 60).toFixed(1),
      '429s received (goal 0)': discord.rateLimitHits().memberRoles,
      'a second sync right after: changes': again.changes.length,
    };
  } finally {
    await db.close();
    await discord.close();
  }
}

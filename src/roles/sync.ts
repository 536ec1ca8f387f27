import { DiscordAPIError, Routes, type APIGuildMember, type REST } from 'discord.js';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import type { Database } from '../db/index.ts';
import { GuildMembers } from '../history/members.ts';
import { linkedAccounts, type FreshNumbers } from '../link/accounts.ts';
import type { SnapshotStats } from '../history/stats.ts';
import { ruleHolds, RoleGrants, RoleRules, type Account, type RoleRule } from './rules.ts';

/**
 * Roles follow verified accounts: for each member, the roles of the rules that hold are added, and the
 * roles that rules name but that no rule gives them any more are removed. A role that no rule names is
 * never touched. Discord's answers are handled once each: a member who left (10007) is forgotten, a
 * deleted role (10011) disables the rules naming it, a refusal (50013) stops the server's sync.
 */
export interface RoleChange {
  readonly userId: string;
  readonly roleId: string;
  readonly action: 'add' | 'remove';
  /** The rule that made the change (for the audit log and the preview). */
  readonly rule: RoleRule;
}

/** What a sync did (or, in a preview, would do). */
export interface SyncSummary {
  readonly members: number;
  readonly changes: RoleChange[];
  /** Members Discord says have left the server (forgotten). */
  readonly left: number;
  /** Rules disabled because a role they name was deleted. */
  readonly disabledRules: string[];
  /** Linked members of whom no snapshot exists yet (only `verified` rules can hold for them). */
  readonly withoutNumbers: number;
  /** Set when Discord refused a change (50013): the sync stopped there. */
  readonly refused?: boolean;
}

/** The changes that bring one member's roles in line with the rules. */
export function planMember(
  rules: readonly RoleRule[],
  userId: string,
  account: Account | undefined,
  current: readonly string[],
): RoleChange[] {
  const active = rules.filter((rule) => rule.state.status === 'active');
  const wanted = new Map<string, RoleRule>();
  const named = new Map<string, RoleRule>();
  for (const rule of active) {
    const holds = ruleHolds(rule, account);
    for (const roleId of rule.roleIds) {
      if (!named.has(roleId)) named.set(roleId, rule);
      if (holds && !wanted.has(roleId)) wanted.set(roleId, rule);
    }
  }
  const has = new Set(current);
  const changes: RoleChange[] = [];
  for (const [roleId, rule] of wanted)
    if (!has.has(roleId)) changes.push({ userId, roleId, action: 'add', rule });
  for (const [roleId, rule] of named)
    if (has.has(roleId) && !wanted.has(roleId)) changes.push({ userId, roleId, action: 'remove', rule });
  return changes;
}

/** The audit-log reason of a change: the rule, named (Discord keeps 512 characters). */
export function auditReason(change: RoleChange): string {
  const { rule } = change;
  const what =
    rule.kind === 'verified'
      ? 'verified account'
      : rule.kind === 'clan'
        ? `clan ${rule.params.clan ?? '?'}`
        : rule.kind === 'ranked'
          ? `ranked MMR ≥ ${rule.params.threshold ?? '?'}${rule.params.region === undefined ? '' : ` in region ${rule.params.region}`}`
          : `level ≥ ${rule.params.threshold ?? '?'}`;
  return `killfeed role rule ${rule.id} (${what})`.slice(0, 512);
}

function discordCode(error: unknown): number | undefined {
  return error instanceof DiscordAPIError && typeof error.code === 'number' ? error.code : undefined;
}

export interface RoleSyncerDeps {
  readonly db: Database;
  readonly rest: REST;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * The sync of each server under way in this process, whichever syncer runs it: the next one waits for it,
 * so two syncs of one server never interleave (each change is made, and reported, once).
 */
const RUNNING = new Map<string, Promise<unknown>>();

/** Members whose roles are read and changed at once within one server's sync. */
const MEMBERS_AT_ONCE = 8;

/** The most members one server's sync looks at (its linked members seen there). */
const MAX_MEMBERS = 5_000;

export class RoleSyncer {
  readonly #deps: RoleSyncerDeps;
  readonly #rules: RoleRules;
  readonly #grants: RoleGrants;
  readonly #members: GuildMembers;

  constructor(deps: RoleSyncerDeps) {
    this.#deps = deps;
    this.#rules = new RoleRules(deps.db);
    this.#grants = new RoleGrants(deps.db);
    this.#members = new GuildMembers(deps.db);
  }

  /** Runs `work` after every sync of the guild already under way here (two syncs never interleave). */
  async #exclusive<T>(guildId: string, work: () => Promise<T>): Promise<T> {
    const previous = RUNNING.get(guildId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    RUNNING.set(guildId, next);
    try {
      return await next;
    } finally {
      if (RUNNING.get(guildId) === next) RUNNING.delete(guildId);
    }
  }

  /** The accounts of these users: their link (suspended ones are none) and its player's latest numbers. */
  #accounts(userIds: readonly string[], fresh?: FreshNumbers) {
    return linkedAccounts(this.#deps.db, userIds, this.#deps.clock.now(), fresh);
  }

  /** The member's roles now; undefined when they left the server (forgotten then). */
  async #currentRoles(guildId: string, userId: string): Promise<string[] | undefined> {
    try {
      const member = (await this.#deps.rest.get(Routes.guildMember(guildId, userId))) as APIGuildMember;
      return member.roles;
    } catch (error) {
      if (discordCode(error) !== 10007) throw error;
      await this.#forgetMember(guildId, userId);
      return undefined;
    }
  }

  async #forgetMember(guildId: string, userId: string): Promise<void> {
    await this.#members.forget(guildId, userId);
    await this.#grants.forgetMember(guildId, userId);
    this.#deps.log.info({ guildId, userId }, 'a member left the server: forgotten by role sync');
  }

  /**
   * Syncs (or, with `dryRun`, plans) the given members of a guild, or all its linked members seen there.
   * `fresh` supplies numbers just read for a player (a refresh, a verification) before they are stored.
   */
  sync(
    guildId: string,
    options: {
      readonly userIds?: readonly string[];
      readonly dryRun?: boolean;
      readonly fresh?: { playerName: string; stats: SnapshotStats };
    } = {},
  ): Promise<SyncSummary> {
    const work = () => this.#sync(guildId, options);
    return options.dryRun ? work() : this.#exclusive(guildId, work);
  }

  async #sync(
    guildId: string,
    options: {
      readonly userIds?: readonly string[];
      readonly dryRun?: boolean;
      readonly fresh?: { playerName: string; stats: SnapshotStats };
    },
  ): Promise<SyncSummary> {
    const rules = await this.#rules.forGuild(guildId);
    const summary = {
      members: 0,
      changes: [] as RoleChange[],
      left: 0,
      disabledRules: [] as string[],
      withoutNumbers: 0,
    };
    if (!rules.some((rule) => rule.state.status === 'active')) return summary;
    const userIds = (options.userIds ?? (await this.#members.linked(guildId)).map((m) => m.userId)).slice(
      0,
      MAX_MEMBERS,
    );
    const accounts = await this.#accounts(userIds, options.fresh);
    const deleted = new Set<string>();
    // Members are looked at a few at a time, so that reading them overlaps with the changes waiting for
    // Discord's window; each member's changes are kept in their place, so the order is the members'.
    const perMember: RoleChange[][] = [];
    let next = 0;
    const stop = { refused: false };
    const worker = async () => {
      for (let index = next++; index < userIds.length && !stop.refused; index = next++) {
        const userId = userIds[index] ?? '';
        const current = await this.#currentRoles(guildId, userId);
        if (current === undefined) {
          summary.left += 1;
          continue;
        }
        summary.members += 1;
        const account = accounts.get(userId);
        if (account && account.stats === undefined) summary.withoutNumbers += 1;
        const live = rules.filter((rule) => !rule.roleIds.some((roleId) => deleted.has(roleId)));
        const made: RoleChange[] = [];
        perMember[index] = made;
        for (const change of planMember(live, userId, account, current)) {
          if (options.dryRun) {
            made.push(change);
            continue;
          }
          const outcome = await this.#apply(guildId, change);
          if (outcome === 'done') made.push(change);
          else if (outcome === 'deletedRole') {
            deleted.add(change.roleId);
            summary.disabledRules.push(
              ...(await this.#rules.roleDeleted(guildId, change.roleId, this.#deps.clock.now())),
            );
          } else if (outcome === 'left') {
            summary.left += 1;
            break;
          } else {
            stop.refused = true;
            break;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(MEMBERS_AT_ONCE, userIds.length) }, worker));
    summary.changes = perMember.flatMap((made) => made);
    // Two members may meet the same deleted role at once: each rule is named once.
    summary.disabledRules = [...new Set(summary.disabledRules)];
    return stop.refused ? { ...summary, refused: true } : summary;
  }

  async #apply(guildId: string, change: RoleChange): Promise<'done' | 'deletedRole' | 'left' | 'refused'> {
    const { rest, clock, log } = this.#deps;
    const route = Routes.guildMemberRole(guildId, change.userId, change.roleId);
    try {
      if (change.action === 'add') await rest.put(route, { reason: auditReason(change) });
      else await rest.delete(route, { reason: auditReason(change) });
    } catch (error) {
      const code = discordCode(error);
      if (code === 10011) {
        log.info(
          { guildId, roleId: change.roleId },
          'a role named by a rule was deleted: its rules are disabled',
        );
        return 'deletedRole';
      }
      if (code === 10007) {
        await this.#forgetMember(guildId, change.userId);
        return 'left';
      }
      if (code === 50013 || code === 50001) {
        log.warn({ guildId, roleId: change.roleId, code }, 'Discord refused a role change: the sync stops');
        return 'refused';
      }
      throw error;
    }
    if (change.action === 'add')
      await this.#grants.granted(guildId, change.userId, change.roleId, change.rule.id, clock.now());
    else await this.#grants.revoked(guildId, change.userId, change.roleId);
    return 'done';
  }

  /** Syncs one user in every server where the bot has seen them and that has rules (link, unlink). */
  async syncUser(userId: string, fresh?: { playerName: string; stats: SnapshotStats }): Promise<number> {
    const guilds = await this.#deps.db.kysely
      .selectFrom('guild_members')
      .innerJoin('role_rules', 'role_rules.guild_id', 'guild_members.guild_id')
      .select('guild_members.guild_id as guildId')
      .distinct()
      .where('guild_members.user_id', '=', userId)
      .where('role_rules.status', '=', 'active')
      .limit(1_000)
      .execute();
    let changes = 0;
    for (const { guildId } of guilds) {
      const summary = await this.sync(guildId, { userIds: [userId], ...(fresh ? { fresh } : {}) });
      changes += summary.changes.length;
    }
    return changes;
  }

  /** Syncs every user linked to this player, with the numbers just read (after a background refresh). */
  async syncPlayer(playerName: string, stats: SnapshotStats): Promise<number> {
    const users = await this.#deps.db.kysely
      .selectFrom('account_links')
      .select('user_id')
      .where('player_name', '=', playerName)
      .limit(100)
      .execute();
    let changes = 0;
    for (const { user_id: userId } of users) changes += await this.syncUser(userId, { playerName, stats });
    return changes;
  }

  /**
   * Takes back the roles a removed rule gave, where no other active rule of the server names them (those
   * roles the next sync keeps in line).
   */
  async revokeRule(rule: RoleRule): Promise<number> {
    return this.#exclusive(rule.guildId, async () => {
      const others = (await this.#rules.forGuild(rule.guildId)).filter(
        (other) => other.id !== rule.id && other.state.status === 'active',
      );
      const stillNamed = new Set(others.flatMap((other) => other.roleIds));
      let removed = 0;
      for (const grant of await this.#grants.ofRule(rule.id)) {
        if (stillNamed.has(grant.roleId)) continue;
        const outcome = await this.#apply(rule.guildId, { ...grant, action: 'remove', rule });
        if (outcome === 'done') removed += 1;
        else if (outcome === 'refused') break;
        else await this.#grants.revoked(rule.guildId, grant.userId, grant.roleId);
      }
      return removed;
    });
  }
}

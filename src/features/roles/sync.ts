import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/index.ts';
import { GuildMembers } from '../../players/members.ts';
import { linkedAccounts, type Account, type FreshNumbers } from '../../players/accounts.ts';
import type { SnapshotStats } from '../../players/stats.ts';
import { MEMBER_LOCKS, memberKey, RoleChanger, ServerUnavailable, type RoleRest } from './apply.ts';
import { ruleReason } from './audit.ts';
import { KeyedLocks } from './locks.ts';
import { ruleHolds, RoleGrants, RoleRules, type RoleRule } from './rules.ts';

export { ServerUnavailable, type RoleRest } from './apply.ts';

/**
 * Roles follow verified accounts: for each member, the roles of the rules that hold are added, and the
 * roles that rules name but that no rule gives them any more are removed. A role that no rule names is
 * never touched. Every change is recorded before Discord is asked (see `apply.ts`), and each sync first
 * settles what an earlier one left unsettled. Discord's answers are handled once each: a member who left
 * (10007) is forgotten, a deleted role (10011) disables the rules naming it, a refusal (50013) stops the
 * server's sync, and a server the bot cannot reach (10004, 50001) is skipped without stopping any other.
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
  /** Set when Discord says the bot cannot reach the server (10004, 50001): the sync stopped there. */
  readonly unavailable?: number;
  /** Grants an earlier sync left unsettled, settled first. */
  readonly settled?: number;
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

/** The audit-log reason of a change: the rule, named, well-formed and within Discord's 512 characters. */
export function auditReason(change: RoleChange): string {
  return ruleReason(change.rule);
}

export interface RoleSyncerDeps {
  readonly db: Database;
  readonly rest: RoleRest;
  readonly clock: Clock;
  readonly log: Logger;
}

/**
 * The whole-server work under way in this process (a `/roles sync`, a rule's removal), whichever syncer
 * runs it: the next one waits for it, so two of them never interleave. A user's own sync (a link, an
 * unlink, a refresh) does not take it: it waits only for the member's turn (`MEMBER_LOCKS`), which a bulk
 * sync holds for one member at a time.
 */
const GUILD_LOCKS = new KeyedLocks();

/** Members whose roles are read and changed at once within one server's sync. */
const MEMBERS_AT_ONCE = 8;

/** The most members one server's sync looks at (its linked members seen there). */
const MAX_MEMBERS = 5_000;

interface SyncOptions {
  readonly userIds?: readonly string[];
  readonly dryRun?: boolean;
  readonly fresh?: { playerName: string; stats: SnapshotStats };
}

export class RoleSyncer {
  readonly #deps: RoleSyncerDeps;
  readonly #rules: RoleRules;
  readonly #grants: RoleGrants;
  readonly #members: GuildMembers;
  readonly #changer: RoleChanger;

  constructor(deps: RoleSyncerDeps) {
    this.#deps = deps;
    this.#rules = new RoleRules(deps.db);
    this.#grants = new RoleGrants(deps.db);
    this.#members = new GuildMembers(deps.db);
    this.#changer = new RoleChanger(deps);
  }

  /** The accounts of these users: their link (suspended ones are none) and its player's latest numbers. */
  #accounts(userIds: readonly string[], fresh?: FreshNumbers) {
    return linkedAccounts(this.#deps.db, userIds, this.#deps.clock.now(), fresh);
  }

  /**
   * Syncs (or, with `dryRun`, plans) the given members of a guild, or all its linked members seen there.
   * `fresh` supplies numbers just read for a player (a refresh, a verification) before they are stored.
   * A whole-server sync waits for another one of the server; a sync of given members does not.
   */
  async sync(guildId: string, options: SyncOptions = {}): Promise<SyncSummary> {
    const work = async () => {
      try {
        return await this.#sync(guildId, options);
      } catch (error) {
        if (!(error instanceof ServerUnavailable)) throw error;
        this.#deps.log.info(
          { guildId, code: error.code },
          'Discord says the bot cannot reach this server (left, or no access): its role sync is skipped',
        );
        return { ...emptySummary(), unavailable: error.code };
      }
    };
    return options.dryRun || options.userIds !== undefined ? work() : GUILD_LOCKS.run(guildId, work);
  }

  async #sync(guildId: string, options: SyncOptions): Promise<SyncSummary> {
    let rules = await this.#rules.forGuild(guildId);
    const summary = emptySummary();
    const userIds =
      options.userIds?.slice(0, MAX_MEMBERS) ??
      (await this.#members.linked(guildId)).slice(0, MAX_MEMBERS).map((m) => m.userId);
    if (!options.dryRun) {
      const reconciled = await this.#changer.reconcile(guildId, rules, options.userIds && userIds);
      if (reconciled.refused) return { ...summary, settled: reconciled.settled, refused: true };
      summary.settled = reconciled.settled;
      if (reconciled.settled > 0) rules = await this.#rules.forGuild(guildId);
    }
    if (!rules.some((rule) => rule.state.status === 'active')) return summary;
    const deleted = new Set<string>();
    // Members are looked at a few at a time, so that reading them overlaps with the changes waiting for
    // Discord's window; each member's changes are kept in their place, so the order is the members'.
    const perMember: RoleChange[][] = [];
    let next = 0;
    const stop: { refused: boolean; error?: { readonly cause: unknown } } = { refused: false };
    const member = async (index: number, userId: string) => {
      const current = await this.#changer.currentRoles(guildId, userId);
      if (current === undefined) {
        summary.left += 1;
        return;
      }
      summary.members += 1;
      // Read in the member's turn: a link or unlink that ran meanwhile is seen, never undone.
      const account = (await this.#accounts([userId], options.fresh)).get(userId);
      if (account && account.stats === undefined) summary.withoutNumbers += 1;
      const live = rules.filter((rule) => !rule.roleIds.some((roleId) => deleted.has(roleId)));
      const made: RoleChange[] = [];
      perMember[index] = made;
      for (const change of planMember(live, userId, account, current)) {
        if (options.dryRun) {
          made.push(change);
          continue;
        }
        const outcome = await this.#changer.apply(guildId, {
          userId,
          roleId: change.roleId,
          action: change.action,
          ruleId: change.rule.id,
          reason: auditReason(change),
        });
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
    };
    const worker = async () => {
      for (let index = next++; index < userIds.length; index = next++) {
        if (stop.refused || stop.error) return;
        const userId = userIds[index] ?? '';
        try {
          if (options.dryRun) await member(index, userId);
          else await MEMBER_LOCKS.run(memberKey(guildId, userId), () => member(index, userId));
        } catch (error) {
          stop.error ??= { cause: error };
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(MEMBERS_AT_ONCE, userIds.length) }, worker));
    if (stop.error) throw stop.error.cause;
    summary.changes = perMember.flatMap((made) => made);
    // Two members may meet the same deleted role at once: each rule is named once.
    summary.disabledRules = [...new Set(summary.disabledRules)];
    return stop.refused ? { ...summary, refused: true } : summary;
  }

  /**
   * Syncs one user in every server where the bot has seen them and that has rules (link, unlink), one
   * server at a time, each on its own: a server that fails or cannot be reached is noted and the next
   * one synced all the same. The first unexpected failure is thrown once every server had its turn.
   */
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
    let failure: { readonly cause: unknown } | undefined;
    for (const { guildId } of guilds) {
      try {
        const summary = await this.sync(guildId, { userIds: [userId], ...(fresh ? { fresh } : {}) });
        changes += summary.changes.length;
        if (summary.refused)
          this.#deps.log.info({ guildId, userId }, 'Discord refused a role change here: next server');
      } catch (error) {
        failure ??= { cause: error };
        this.#deps.log.warn({ err: error, guildId, userId }, 'role sync failed in one server: next server');
      }
    }
    if (failure) throw failure.cause;
    return changes;
  }

  /**
   * Takes back every role a removed rule gave, settled or not (an intent may have reached Discord), where
   * no other active rule of the server names it; a rule that does inherits the grant, so that its own
   * removal takes the role back in turn.
   */
  async revokeRule(rule: RoleRule): Promise<number> {
    return GUILD_LOCKS.run(rule.guildId, async () => {
      const others = (await this.#rules.forGuild(rule.guildId)).filter(
        (other) => other.id !== rule.id && other.state.status === 'active',
      );
      let removed = 0;
      for (const grant of await this.#grants.ofRule(rule.id)) {
        const { userId, roleId } = grant;
        const outcome = await MEMBER_LOCKS.run(memberKey(rule.guildId, userId), async () => {
          const heir = others.find((other) => other.roleIds.includes(roleId));
          if (heir) {
            await this.#grants.reassign(rule.guildId, userId, roleId, heir.id);
            return 'kept';
          }
          const reason = ruleReason(rule);
          return this.#changer.apply(rule.guildId, {
            userId,
            roleId,
            action: 'remove',
            ruleId: rule.id,
            reason,
          });
        });
        if (outcome === 'done') removed += 1;
        else if (outcome === 'refused') break;
      }
      return removed;
    });
  }
}

function emptySummary() {
  return {
    members: 0,
    changes: [] as RoleChange[],
    left: 0,
    disabledRules: [] as string[],
    withoutNumbers: 0,
    settled: 0,
  };
}

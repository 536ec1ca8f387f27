import { DiscordAPIError, Routes, type APIGuildMember, type REST } from 'discord.js';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/index.ts';
import { GuildMembers } from '../../players/members.ts';
import { KeyedLocks } from './locks.ts';
import { RoleGrants, type Grant, type RoleRule } from './rules.ts';

/** What a role sync needs of discord.js's REST client. */
export type RoleRest = Pick<REST, 'get' | 'put' | 'delete'>;

export interface RoleChangerDeps {
  readonly db: Database;
  readonly rest: RoleRest;
  readonly clock: Clock;
  readonly log: Logger;
}

/** One role given or taken back, and what the audit log says of it. */
export interface RoleStep {
  readonly userId: string;
  readonly roleId: string;
  readonly action: 'add' | 'remove';
  readonly ruleId: string;
  readonly reason: string;
}

export type StepOutcome = 'done' | 'deletedRole' | 'left' | 'refused';

/**
 * Discord says the bot cannot reach the server any more (10004 Unknown Guild, 50001 Missing Access: it
 * left, or is leaving): that server's sync stops, and no other's.
 */
export class ServerUnavailable extends Error {
  constructor(
    readonly guildId: string,
    readonly code: number,
  ) {
    super(`Discord answered ${code} for server ${guildId}`);
    this.name = 'ServerUnavailable';
  }
}

export function discordCode(error: unknown): number | undefined {
  return error instanceof DiscordAPIError && typeof error.code === 'number' ? error.code : undefined;
}

const UNAVAILABLE = new Set([10004, 50001]);

/**
 * A member's changes, one at a time in this process (a bulk sync, a user's own sync and a rule's removal
 * take the member's turn, so none of them waits for a whole server).
 */
export const MEMBER_LOCKS = new KeyedLocks();
export const memberKey = (guildId: string, userId: string) => `${guildId}:${userId}`;

/**
 * Changes a member's roles on Discord with the grant recorded first: an intent (`adding`, `removing`) is
 * written before the call and settled after it. A call whose outcome is unknown (the network, a 5xx, the
 * process dying) leaves the intent for {@link RoleChanger.reconcile}, so the bot can always take back what
 * it may have given.
 */
export class RoleChanger {
  readonly #deps: RoleChangerDeps;
  readonly #grants: RoleGrants;
  readonly #members: GuildMembers;

  constructor(deps: RoleChangerDeps) {
    this.#deps = deps;
    this.#grants = new RoleGrants(deps.db);
    this.#members = new GuildMembers(deps.db);
  }

  /** The member's roles now; undefined when they left the server (forgotten then). */
  async currentRoles(guildId: string, userId: string): Promise<string[] | undefined> {
    try {
      const member = (await this.#deps.rest.get(Routes.guildMember(guildId, userId))) as APIGuildMember;
      return member.roles;
    } catch (error) {
      const code = discordCode(error);
      if (code !== undefined && UNAVAILABLE.has(code)) throw new ServerUnavailable(guildId, code);
      if (code !== 10007) throw error;
      await this.forgetMember(guildId, userId);
      return undefined;
    }
  }

  async forgetMember(guildId: string, userId: string): Promise<void> {
    await this.#members.forget(guildId, userId);
    await this.#grants.forgetMember(guildId, userId);
    this.#deps.log.info({ guildId, userId }, 'a member left the server: forgotten by role sync');
  }

  async apply(guildId: string, step: RoleStep): Promise<StepOutcome> {
    const { rest, clock, log } = this.#deps;
    const { userId, roleId } = step;
    if (step.action === 'add') await this.#grants.adding(guildId, userId, roleId, step.ruleId, clock.now());
    else await this.#grants.removing(guildId, userId, roleId);
    const route = Routes.guildMemberRole(guildId, userId, roleId);
    try {
      if (step.action === 'add') await rest.put(route, { reason: step.reason });
      else await rest.delete(route, { reason: step.reason });
    } catch (error) {
      const code = discordCode(error);
      // No answer from Discord (the network, a 5xx): the change may have happened; the intent stays.
      if (code === undefined) throw error;
      if (code === 10007) {
        await this.forgetMember(guildId, userId);
        return 'left';
      }
      if (code === 10011) {
        log.info({ guildId, roleId }, 'a role named by a rule was deleted: its rules are disabled');
        await this.#grants.revoked(guildId, userId, roleId);
        return 'deletedRole';
      }
      // Discord refused: nothing changed, so an addition leaves no grant and a removal keeps it.
      if (step.action === 'add') await this.#grants.revoked(guildId, userId, roleId);
      else await this.#grants.keep(guildId, userId, roleId);
      if (UNAVAILABLE.has(code)) throw new ServerUnavailable(guildId, code);
      if (code === 50013) {
        log.warn({ guildId, roleId, code }, 'Discord refused a role change: the sync stops');
        return 'refused';
      }
      throw error;
    }
    if (step.action === 'add') await this.#grants.confirm(guildId, userId, roleId);
    else await this.#grants.revoked(guildId, userId, roleId);
    return 'done';
  }

  /**
   * Settles the server's unsettled grants (or these members'): reads each member's roles once, confirms
   * an `adding` whose role the member holds (and drops one they lack), and takes back the role of a
   * `removing` grant or of a grant whose rule is gone (a rule that still names the role inherits it).
   * The caller holds no member's turn; each member is settled in theirs.
   */
  async reconcile(
    guildId: string,
    rules: readonly RoleRule[],
    userIds?: readonly string[],
  ): Promise<{ readonly settled: number; readonly refused: boolean }> {
    const unsettled = await this.#grants.unsettled(guildId, userIds);
    const byUser = new Map<string, Grant[]>();
    for (const grant of unsettled) byUser.set(grant.userId, [...(byUser.get(grant.userId) ?? []), grant]);
    let settled = 0;
    for (const [userId, grants] of byUser) {
      const outcome = await MEMBER_LOCKS.run(memberKey(guildId, userId), () =>
        this.#settleMember(guildId, userId, grants, rules),
      );
      if (outcome === 'refused') return { settled, refused: true };
      settled += grants.length;
    }
    if (settled > 0) this.#deps.log.info({ guildId, settled }, 'unsettled role grants settled');
    return { settled, refused: false };
  }

  async #settleMember(
    guildId: string,
    userId: string,
    grants: readonly Grant[],
    rules: readonly RoleRule[],
  ): Promise<'done' | 'refused'> {
    const current = await this.currentRoles(guildId, userId);
    if (current === undefined) return 'done';
    const has = new Set(current);
    const active = rules.filter((rule) => rule.state.status === 'active');
    for (const grant of grants) {
      let rule = active.find((candidate) => candidate.id === grant.ruleId);
      if (!rule) {
        rule = active.find((candidate) => candidate.roleIds.includes(grant.roleId));
        if (rule) await this.#grants.reassign(guildId, userId, grant.roleId, rule.id);
      }
      if (rule && grant.state !== 'removing') {
        if (grant.state === 'granted') continue;
        if (has.has(grant.roleId)) await this.#grants.confirm(guildId, userId, grant.roleId);
        else await this.#grants.revoked(guildId, userId, grant.roleId);
        continue;
      }
      if (!has.has(grant.roleId)) {
        await this.#grants.revoked(guildId, userId, grant.roleId);
        continue;
      }
      const outcome = await this.apply(guildId, {
        userId,
        roleId: grant.roleId,
        action: 'remove',
        ruleId: grant.ruleId,
        reason: `killfeed role rule ${grant.ruleId} (settling a change that did not finish)`,
      });
      if (outcome === 'refused') return 'refused';
      if (outcome === 'left') return 'done';
    }
    return 'done';
  }
}

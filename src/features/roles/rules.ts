import { randomInt } from 'node:crypto';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import type { GrantState, RoleRulesTable } from '../../db/schema.ts';
import type { Account } from '../../players/accounts.ts';

/**
 * A server's role rules: which of its members' game accounts earn which roles. A rule names one to three
 * roles; a member may match several rules. Rules live in `role_rules`, the roles the bot gave because of
 * them in `role_grants` (so that removing a rule takes back what it gave, and nothing else).
 */
export const RULE_KINDS = ['verified', 'clan', 'ranked', 'level'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/** The role feature's records, opened once at the composition root. */
export interface RoleRecords {
  readonly rules: RoleRules;
  readonly grants: RoleGrants;
}

declare module '../../services.ts' {
  interface Records {
    readonly roles: RoleRecords;
  }
}

export function openRoleRecords(db: Database): RoleRecords {
  return { rules: new RoleRules(db), grants: new RoleGrants(db) };
}

/** Rules a server may have; roles a rule may name. */
export const MAX_RULES_PER_GUILD = 25;
export const MAX_ROLES_PER_RULE = 3;

const ParamsSchema = z.object({
  clan: z.string().max(100).optional(),
  threshold: z.number().int().min(0).max(100_000).optional(),
  /** A ranked region; absent: any region. */
  region: z.number().int().optional(),
});
export type RuleParams = z.output<typeof ParamsSchema>;

export type RuleState =
  | { readonly status: 'active' }
  | { readonly status: 'disabled'; readonly reason: 'deletedRole'; readonly at: number };

export interface RoleRule {
  readonly id: string;
  readonly guildId: string;
  readonly kind: RuleKind;
  readonly params: RuleParams;
  readonly roleIds: readonly string[];
  readonly state: RuleState;
  readonly createdBy: string;
  readonly createdAt: number;
}

/** Whether the rule holds for a member with this account (undefined: not linked). */
export function ruleHolds(rule: RoleRule, account: Account | undefined): boolean {
  if (rule.state.status !== 'active' || account === undefined) return false;
  const { stats } = account;
  switch (rule.kind) {
    case 'verified':
      return true;
    case 'clan':
      return (
        stats !== undefined &&
        rule.params.clan !== undefined &&
        stats.clan.toLowerCase() === rule.params.clan.toLowerCase()
      );
    case 'ranked': {
      const threshold = rule.params.threshold ?? Infinity;
      return (
        stats !== undefined &&
        stats.ranked.some(
          (standing) =>
            (rule.params.region === undefined || standing.region === rule.params.region) &&
            standing.mmr >= threshold,
        )
      );
    }
    case 'level':
      return stats !== undefined && stats.level >= (rule.params.threshold ?? Infinity);
  }
}

const ID_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function freshId(): string {
  return Array.from({ length: 6 }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A row as a rule; a damaged row (edited by hand) is skipped, never trusted. */
function fromRow(row: Selectable<RoleRulesTable>): RoleRule | undefined {
  const params = ParamsSchema.safeParse(parseJson(row.params));
  const roleIds = z
    .array(z.string().regex(/^\d{1,20}$/))
    .min(1)
    .max(MAX_ROLES_PER_RULE)
    .safeParse(parseJson(row.role_ids));
  const kind = z.enum(RULE_KINDS).safeParse(row.kind);
  if (!params.success || !roleIds.success || !kind.success) return undefined;
  return {
    id: row.id,
    guildId: row.guild_id,
    kind: kind.data,
    params: params.data,
    roleIds: roleIds.data,
    state:
      row.status === 'active'
        ? { status: 'active' }
        : { status: 'disabled', reason: 'deletedRole', at: row.disabled_at ?? row.created_at },
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

export class RoleRules {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  get #k() {
    return this.#db.kysely;
  }

  async forGuild(guildId: string): Promise<RoleRule[]> {
    const rows = await this.#k
      .selectFrom('role_rules')
      .selectAll()
      .where('guild_id', '=', guildId)
      .orderBy('created_at')
      .limit(MAX_RULES_PER_GUILD * 2)
      .execute();
    return rows.flatMap((row) => fromRow(row) ?? []);
  }

  async get(id: string): Promise<RoleRule | undefined> {
    const row = await this.#k.selectFrom('role_rules').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  /** Saves a new rule; undefined when the server has {@link MAX_RULES_PER_GUILD} already. */
  async add(fields: Omit<RoleRule, 'id' | 'state'>): Promise<RoleRule | undefined> {
    return this.#k.transaction().execute(async (tx) => {
      const count = await tx
        .selectFrom('role_rules')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('guild_id', '=', fields.guildId)
        .executeTakeFirst();
      if (Number(count?.count ?? 0) >= MAX_RULES_PER_GUILD) return undefined;
      const rule: RoleRule = { ...fields, id: freshId(), state: { status: 'active' } };
      await tx
        .insertInto('role_rules')
        .values({
          id: rule.id,
          guild_id: rule.guildId,
          kind: rule.kind,
          params: JSON.stringify(rule.params),
          role_ids: JSON.stringify(rule.roleIds),
          status: 'active',
          disabled_reason: null,
          disabled_at: null,
          created_by: rule.createdBy,
          created_at: rule.createdAt,
        })
        .execute();
      return rule;
    });
  }

  async delete(id: string): Promise<void> {
    await this.#k.deleteFrom('role_rules').where('id', '=', id).execute();
  }

  /** Disables the guild's active rules that name the role (it was deleted); returns their ids. */
  async roleDeleted(guildId: string, roleId: string, at: number): Promise<string[]> {
    const hit = (await this.forGuild(guildId)).filter(
      (rule) => rule.state.status === 'active' && rule.roleIds.includes(roleId),
    );
    for (const rule of hit) {
      await this.#k
        .updateTable('role_rules')
        .set({ status: 'disabled', disabled_reason: 'deletedRole', disabled_at: at })
        .where('id', '=', rule.id)
        .execute();
    }
    return hit.map((rule) => rule.id);
  }
}

/** A grant row: the role the bot gave (or is giving, or taking back), to whom, by which rule. */
export interface Grant {
  readonly userId: string;
  readonly roleId: string;
  readonly ruleId: string;
  readonly state: GrantState;
}

/** The most unsettled grants one pass settles (the next pass takes the rest). */
export const MAX_UNSETTLED = 1_000;

/**
 * The `role_grants` table: which roles the bot gave to whom, and by which rule. A grant is written as an
 * intent before Discord is asked (`adding`, `removing`) and settled after, so that whatever the bot gave is
 * on record even when the store or the process stops between the two.
 */
export class RoleGrants {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  #row(guildId: string, userId: string, roleId: string) {
    return this.#db.kysely
      .updateTable('role_grants')
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .where('role_id', '=', roleId);
  }

  async #upsert(
    guildId: string,
    userId: string,
    roleId: string,
    ruleId: string,
    at: number,
    state: GrantState,
  ) {
    const values = { rule_id: ruleId, granted_at: at, state };
    await this.#db.kysely
      .insertInto('role_grants')
      .values({ guild_id: guildId, user_id: userId, role_id: roleId, ...values })
      .onConflict((c) => c.columns(['guild_id', 'user_id', 'role_id']).doUpdateSet(values))
      .execute();
  }

  /** Records a confirmed grant at once (a role Discord already shows on the member). */
  async granted(guildId: string, userId: string, roleId: string, ruleId: string, at: number): Promise<void> {
    await this.#upsert(guildId, userId, roleId, ruleId, at, 'granted');
  }

  /** Written before the role is given: from now on the role can be taken back whatever happens next. */
  async adding(guildId: string, userId: string, roleId: string, ruleId: string, at: number): Promise<void> {
    await this.#upsert(guildId, userId, roleId, ruleId, at, 'adding');
  }

  /** Discord gave the role: the intent becomes a grant. */
  async confirm(guildId: string, userId: string, roleId: string): Promise<void> {
    await this.#row(guildId, userId, roleId).set({ state: 'granted' }).execute();
  }

  /** Written before the role is taken back (a member without a grant row has nothing to mark). */
  async removing(guildId: string, userId: string, roleId: string): Promise<void> {
    await this.#row(guildId, userId, roleId).set({ state: 'removing' }).execute();
  }

  /** Discord refused to take the role back: the grant stands as it was. */
  async keep(guildId: string, userId: string, roleId: string): Promise<void> {
    await this.#row(guildId, userId, roleId)
      .where('state', '=', 'removing')
      .set({ state: 'granted' })
      .execute();
  }

  /** The grant now belongs to another rule naming the same role (its own rule was removed). */
  async reassign(guildId: string, userId: string, roleId: string, ruleId: string): Promise<void> {
    await this.#row(guildId, userId, roleId).set({ rule_id: ruleId }).execute();
  }

  async revoked(guildId: string, userId: string, roleId: string): Promise<void> {
    await this.#db.kysely
      .deleteFrom('role_grants')
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .where('role_id', '=', roleId)
      .execute();
  }

  /** Every grant a rule made, settled or not (to take them back when it is removed). */
  async ofRule(ruleId: string): Promise<Grant[]> {
    const rows = await this.#db.kysely
      .selectFrom('role_grants')
      .select(['user_id', 'role_id', 'rule_id', 'state'])
      .where('rule_id', '=', ruleId)
      .limit(100_000)
      .execute();
    return rows.map(grantOf);
  }

  /**
   * The grants of the guild (or of these members) still to settle: an intent whose Discord call may or may
   * not have happened, or a grant whose rule is gone (its removal did not finish). At most {@link MAX_UNSETTLED}.
   */
  async unsettled(guildId: string, userIds?: readonly string[]): Promise<Grant[]> {
    let query = this.#db.kysely
      .selectFrom('role_grants')
      .leftJoin('role_rules', 'role_rules.id', 'role_grants.rule_id')
      .select(['role_grants.user_id', 'role_grants.role_id', 'role_grants.rule_id', 'role_grants.state'])
      .where('role_grants.guild_id', '=', guildId)
      .where((eb) => eb.or([eb('role_grants.state', '!=', 'granted'), eb('role_rules.id', 'is', null)]));
    if (userIds !== undefined) {
      if (userIds.length === 0) return [];
      query = query.where('role_grants.user_id', 'in', [...userIds].slice(0, 500));
    }
    const rows = await query.orderBy('role_grants.user_id').limit(MAX_UNSETTLED).execute();
    return rows.map(grantOf);
  }

  async forgetMember(guildId: string, userId: string): Promise<void> {
    await this.#db.kysely
      .deleteFrom('role_grants')
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .execute();
  }
}

function grantOf(row: { user_id: string; role_id: string; rule_id: string; state: string }): Grant {
  const state: GrantState = row.state === 'adding' || row.state === 'removing' ? row.state : 'granted';
  return { userId: row.user_id, roleId: row.role_id, ruleId: row.rule_id, state };
}

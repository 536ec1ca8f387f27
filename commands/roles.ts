import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Guild,
  type Role,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type {
  AutocompleteChoice,
  Command,
  CommandContext,
  CommandSpec,
  CompletionContext,
  ComponentContext,
} from '../src/discord/command.ts';
import { defineComponents } from '../src/discord/component-id.ts';
import { UserError } from '../src/core/user-error.ts';
import { RANKED_REGIONS } from '../src/players/stats.ts';
import { text } from '../src/render/common.ts';
import {
  renderDangerousRule,
  renderRoleRules,
  renderRuleAdded,
  renderRuleCancelled,
  renderRuleRemoved,
  renderSync,
} from '../src/features/roles/render.ts';
import { dangersOf } from '../src/features/roles/dangerous.ts';
import { PENDING_RULE_MS, PendingRules, type PendingRule } from '../src/features/roles/pending.ts';
import {
  MAX_RULES_PER_GUILD,
  RULE_KINDS,
  type RuleKind,
  type RuleParams,
} from '../src/features/roles/rules.ts';
import { RoleSyncer } from '../src/features/roles/sync.ts';
import { idOption } from '../src/discord/options.ts';

const role = (name: string, required: boolean) =>
  ({ type: ApplicationCommandOptionType.Role, name, required }) as const;

const data = {
  name: 'roles',
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
  default_member_permissions: (PermissionFlagsBits.ManageRoles | PermissionFlagsBits.ManageGuild).toString(),
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'add',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'kind',
          required: true,
          choices: RULE_KINDS.map((value) => ({ value })),
        },
        role('role', true),
        role('role2', false),
        role('role3', false),
        {
          type: ApplicationCommandOptionType.String,
          name: 'clan',
          min_length: 1,
          max_length: 100,
          autocomplete: 'clan',
        },
        { type: ApplicationCommandOptionType.Integer, name: 'threshold', min_value: 0, max_value: 100_000 },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'region',
          choices: RANKED_REGIONS.map((value) => ({ value })),
        },
      ],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'list' },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'remove',
      options: [idOption(completeRules)],
    },
    { type: ApplicationCommandOptionType.Subcommand, name: 'preview' },
    { type: ApplicationCommandOptionType.Subcommand, name: 'sync' },
  ],
} as const satisfies CommandSpec;

/** The server's role rules whose id or kind matches what was typed (`/roles remove id`). */
async function completeRules(ctx: CompletionContext): Promise<AutocompleteChoice[]> {
  const guildId = ctx.interaction.guildId;
  if (guildId === null) return [];
  const query = ctx.typed.trim().toLowerCase();
  return (await ctx.services.records.roles.rules.forGuild(guildId))
    .map((rule) => ({ name: `${rule.id} · ${rule.kind}`, value: rule.id }))
    .filter((choice) => query === '' || choice.name.includes(query))
    .slice(0, 25);
}

/** A rule naming a dangerous role waits for its author: Confirm saves it, Cancel drops it. */
export const ids = defineComponents('roles', { confirm: ['key'], cancel: ['key'] });

type RolesInteraction = ChatInputCommandInteraction | ButtonInteraction | StringSelectMenuInteraction;

/** The server, once the member is known to hold Manage Roles and Manage Server there. */
function requireRoleManager(interaction: RolesInteraction): Guild {
  if (!interaction.inCachedGuild()) throw new UserError('roles:errors.guildOnly');
  const needed = PermissionFlagsBits.ManageRoles | PermissionFlagsBits.ManageGuild;
  if (!interaction.memberPermissions.has(needed)) throw new UserError('roles:errors.permissions');
  return interaction.guild;
}

/**
 * The refusals, before anything changes: the bot must hold Manage Roles, and each role must be one it can
 * give (below its highest role, neither managed nor @everyone) and one the caller could give by hand
 * (below the caller's highest role, unless the caller owns the server).
 */
async function checkRoles(
  interaction: ChatInputCommandInteraction<'cached'> | ButtonInteraction<'cached'>,
  roles: readonly Role[],
) {
  const guild = interaction.guild;
  const me = await guild.members.fetchMe();
  if (!me.permissions.has(PermissionFlagsBits.ManageRoles)) throw new UserError('roles:errors.botPermission');
  const isOwner = guild.ownerId === interaction.user.id;
  const callerTop = interaction.member.roles.highest.position;
  for (const target of roles) {
    const mention = `<@&${target.id}>`;
    if (target.id === guild.id) throw new UserError('roles:errors.everyone');
    if (target.managed) throw new UserError('roles:errors.managed', { role: mention });
    if (target.position >= me.roles.highest.position)
      throw new UserError('roles:errors.aboveBot', { role: mention });
    if (!isOwner && target.position >= callerTop)
      throw new UserError('roles:errors.aboveCaller', { role: mention });
  }
}

/** What the rule checks: its clan (as the game spells it), its threshold and region. */
async function paramsOf(
  ctx: CommandContext,
  kind: RuleKind,
  args: { clan?: string | undefined; threshold?: number | undefined; region?: number | undefined },
): Promise<RuleParams> {
  switch (kind) {
    case 'verified':
      return {};
    case 'clan': {
      const name = args.clan?.trim();
      if (!name) throw new UserError('roles:errors.clanNeeded');
      const clan = await ctx.load('clan', { clanName: name });
      ctx.services.names.remember('clan', clan.name);
      return { clan: clan.name };
    }
    case 'ranked':
    case 'level':
      if (args.threshold === undefined) throw new UserError('roles:errors.thresholdNeeded');
      return {
        threshold: args.threshold,
        ...(kind === 'ranked' && args.region !== undefined ? { region: args.region } : {}),
      };
  }
}

/** Saves the rule and says so (or refuses when the server has its fill of rules). */
async function saveRule(ctx: CommandContext | ComponentContext, fields: PendingRule) {
  const rule = await ctx.services.records.roles.rules.add(fields);
  if (!rule) throw new UserError('roles:errors.limit', { max: MAX_RULES_PER_GUILD });
  ctx.services.log.info({ guild: fields.guildId, rule: rule.id, kind: rule.kind }, 'role rule added');
  return ctx.send({ ...renderRuleAdded(ctx.t, rule), components: [] });
}

/**
 * Confirm or Cancel of a rule naming a dangerous role: only its author, still holding the permissions,
 * within {@link PENDING_RULE_MS}, and with the roles still ones both could give.
 */
async function settlePending(ctx: ComponentContext, action: 'confirm' | 'cancel', key: string) {
  const { interaction } = ctx;
  if (!interaction.isButton()) throw new UserError('common:errors.unknownComponent');
  const guild = requireRoleManager(interaction);
  if (!interaction.inCachedGuild()) throw new UserError('roles:errors.guildOnly');
  const pending = new PendingRules(ctx.services.store);
  const rule = await pending.get(key);
  if (!rule || rule.guildId !== guild.id) throw new UserError('roles:errors.pendingGone');
  if (rule.createdBy !== interaction.user.id) throw new UserError('roles:errors.notYours');
  if (action === 'cancel') {
    await pending.drop(key);
    return ctx.send(renderRuleCancelled(ctx.t));
  }
  await ctx.defer({ ephemeral: true });
  const roles = await Promise.all(rule.roleIds.map((id) => guild.roles.fetch(id)));
  if (roles.some((role) => role === null)) throw new UserError('roles:errors.pendingGone');
  await checkRoles(
    interaction,
    roles.flatMap((role) => (role ? [role] : [])),
  );
  await pending.drop(key);
  return saveRule(ctx, rule);
}

function syncer(ctx: CommandContext): RoleSyncer {
  const { db, clock, log } = ctx.services;
  return new RoleSyncer({ db, rest: ctx.interaction.client.rest, clock, log });
}

/**
 * `/roles add|list|remove|preview|sync`: a server's roles follow its members' verified game accounts
 * (`src/roles`). Members with Manage Roles and Manage Server set the rules.
 */
export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    const { interaction, services, args } = ctx;
    const guild = requireRoleManager(interaction);
    const rules = services.records.roles.rules;
    switch (args.subcommand) {
      case 'add': {
        if (!interaction.inCachedGuild()) throw new UserError('roles:errors.guildOnly');
        const kind = RULE_KINDS.find((k) => k === args.kind);
        if (!kind) throw new UserError('common:errors.unknownCommand');
        const roles = [args.role, args.role2, args.role3].flatMap((r) => (r ? [r as Role] : []));
        const unique = [...new Map(roles.map((r) => [r.id, r])).values()];
        await ctx.defer({ ephemeral: true });
        await checkRoles(interaction, unique);
        const params = await paramsOf(ctx, kind, args);
        const fields: PendingRule = {
          guildId: guild.id,
          kind,
          params,
          roleIds: unique.map((r) => r.id),
          createdBy: interaction.user.id,
          createdAt: ctx.now,
        };
        const dangers = dangersOf(unique);
        if (dangers.size === 0) return saveRule(ctx, fields);
        // A role with Administrator, Manage Server…: saved only once its author confirms.
        const key = await new PendingRules(services.store).put(fields);
        const expiresAt = ctx.now + PENDING_RULE_MS;
        const buttons = {
          confirm: ids.encode.confirm({ key }, expiresAt),
          cancel: ids.encode.cancel({ key }, expiresAt),
        };
        return ctx.send(renderDangerousRule(ctx.t, fields, dangers, buttons, expiresAt));
      }
      case 'list':
        return ctx.send(
          renderRoleRules(ctx.t, await rules.forGuild(guild.id), dangersOf(guild.roles.cache.values())),
        );
      case 'remove': {
        const id = args.id.trim().toLowerCase();
        const rule = await rules.get(id);
        if (rule?.guildId !== guild.id) throw new UserError('roles:errors.notFound', { id: text(id, 32) });
        await ctx.defer({ ephemeral: true });
        await rules.delete(rule.id);
        const removed = await syncer(ctx).revokeRule(rule);
        services.log.info({ guild: guild.id, rule: rule.id, removed }, 'role rule removed');
        return ctx.send(renderRuleRemoved(ctx.t, rule, removed));
      }
      case 'preview':
      case 'sync': {
        await ctx.defer({ ephemeral: true });
        const dryRun = args.subcommand === 'preview';
        const summary = await syncer(ctx).sync(guild.id, { dryRun });
        return ctx.send(renderSync(ctx.t, summary, dryRun));
      }
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const id = ids.decode(ctx.id);
    if (!id) throw new UserError('common:errors.unknownComponent');
    return settlePending(ctx, id.action, id.args.key);
  },
};

import {
  ApplicationCommandOptionType,
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
} from 'discord.js';
import { ForbiddenError } from '../src/api/errors.ts';
import type { KpdLatestCalls } from '../src/api/schemas/index.ts';
import type {
  Command,
  CommandContext,
  CommandSpec,
  ComponentContext,
  ModalContext,
} from '../src/discord/command.ts';
import { defineComponents } from '../src/discord/component-id.ts';
import { parsePage } from '../src/discord/options.ts';
import { UserError } from '../src/core/user-error.ts';
import { keyStatusMessage, looksLikeDeveloperKey } from '../src/features/kpd/keys.ts';
import { registerSecret } from '../src/log/index.ts';
import { renderKpdCalls, renderKpdLinked, renderKpdUnlinked } from '../src/features/kpd/render.ts';
import { pastTimes } from '../src/render/common.ts';
import { keyPrefix } from '../src/secrets/mask.ts';
import { askForSecret, submittedSecret } from '../src/secrets/modal.ts';

/**
 * `/kpd`: a guild's moderators link a developer key with scope `kpd` (kept sealed, see
 * docs/secrets.md) and read the latest hacker reports with it. Every subcommand needs Manage Guild,
 * checked by Discord (the default permission) and again here, also when the modal comes back and when a
 * page button is clicked (the calls are the server's moderator data).
 */
const MODAL_LIFETIME_MS = 15 * 60_000;

type AnyContext = CommandContext | ComponentContext | ModalContext;

/** The ids of the link modal and the calls' page buttons; exported for the renderer tests. */
export const ids = defineComponents('kpd', { link: [], calls: ['page'] });

export const kpdIds = {
  callsPager: (now: number) => ids.pager(now, (p, at) => ids.encode.calls({ page: p }, at)),
};

function guildOf(ctx: AnyContext): string {
  const guildId = ctx.interaction.guildId;
  if (!guildId) throw new UserError('kpd:errors.guildOnly');
  return guildId;
}

function requireManageGuild(ctx: AnyContext): void {
  if (ctx.interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) !== true) {
    throw new UserError('kpd:errors.manageGuild');
  }
}

async function startLink(ctx: CommandContext): Promise<void> {
  guildOf(ctx);
  requireManageGuild(ctx);
  if (!ctx.services.records.kpdKeys.configured) throw new UserError('kpd:errors.noSecret');
  const customId = ids.encode.link({}, ctx.now + MODAL_LIFETIME_MS);
  if (customId === undefined) throw new UserError('common:errors.unknownComponent');
  await askForSecret(ctx, {
    customId,
    title: ctx.t.t('kpd:modal.title'),
    label: ctx.t.t('kpd:modal.label'),
    description: ctx.t.t('kpd:modal.description'),
    placeholder: 'kr_…',
    minLength: 8,
    maxLength: 256,
  });
}

async function finishLink(ctx: ModalContext): Promise<void> {
  const guildId = guildOf(ctx);
  requireManageGuild(ctx);
  const keys = ctx.services.records.kpdKeys;
  if (!keys.configured) throw new UserError('kpd:errors.noSecret');
  const apiKey = submittedSecret(ctx.interaction);
  const forget = registerSecret(apiKey);
  try {
    if (!looksLikeDeveloperKey(apiKey)) throw new UserError('kpd:link.badShape');
    await ctx.defer({ ephemeral: true });
    let calls: KpdLatestCalls;
    try {
      calls = await ctx.load('kpdLatestCalls', {}, { apiKey });
    } catch (error) {
      if (error instanceof ForbiddenError) {
        throw new UserError(error.reason === 'missing_scope' ? 'kpd:link.missingScope' : 'kpd:link.refused');
      }
      throw error;
    }
    await keys.save(guildId, apiKey, ctx.interaction.user.id, ctx.now);
    ctx.services.log.info({ guildId, by: ctx.interaction.user.id }, 'KPD key linked');
    await ctx.send(renderKpdLinked(ctx.t, { prefix: keyPrefix(apiKey), visibleCalls: calls.length }));
  } finally {
    forget();
  }
}

async function unlink(ctx: CommandContext): Promise<void> {
  const guildId = guildOf(ctx);
  requireManageGuild(ctx);
  const removed = await ctx.services.records.kpdKeys.remove(guildId);
  if (removed) ctx.services.log.info({ guildId, by: ctx.interaction.user.id }, 'KPD key unlinked');
  await ctx.send(renderKpdUnlinked(ctx.t, removed));
}

async function showCalls(ctx: CommandContext | ComponentContext, page: number): Promise<void> {
  const guildId = guildOf(ctx);
  requireManageGuild(ctx);
  const result = await ctx.services.records.kpdKeys.withKey(guildId, async (key) => {
    await ctx.defer({ ephemeral: true });
    try {
      return await ctx.load('kpdLatestCalls', {}, { apiKey: key.apiKey });
    } catch (error) {
      if (error instanceof ForbiddenError) throw new UserError('kpd:errors.keyRefused');
      throw error;
    }
  });
  if (result.status !== 'ok') {
    if (result.status === 'other_key' || result.status === 'unreadable') {
      ctx.services.log.warn({ guildId, status: result.status }, 'linked KPD key cannot be opened');
    }
    throw new UserError(keyStatusMessage(result.status));
  }
  const calls = result.value;
  ctx.services.names.remember('player', ...calls.flatMap((call) => [call.caller_name, call.called_name]));
  await ctx.send(
    renderKpdCalls(ctx.t, {
      calls,
      page,
      now: ctx.now,
      pager: kpdIds.callsPager(ctx.now),
      past: pastTimes(ctx.now, ctx.services.log),
    }),
  );
}

const data = {
  name: 'kpd',
  default_member_permissions: String(PermissionFlagsBits.ManageGuild),
  integration_types: [ApplicationIntegrationType.GuildInstall],
  contexts: [InteractionContextType.Guild],
  options: [
    { type: ApplicationCommandOptionType.Subcommand, name: 'link' },
    { type: ApplicationCommandOptionType.Subcommand, name: 'unlink' },
    { type: ApplicationCommandOptionType.Subcommand, name: 'calls' },
  ],
} as const satisfies CommandSpec;

export const command: Command<typeof data> = {
  data,

  async execute(ctx) {
    switch (ctx.args.subcommand) {
      case 'link':
        return startLink(ctx);
      case 'unlink':
        return unlink(ctx);
      case 'calls':
        return showCalls(ctx, 1);
      default:
        throw new UserError('common:errors.unknownCommand');
    }
  },

  async component(ctx) {
    const id = ids.decode(ctx.id);
    if (id?.action !== 'calls') throw new UserError('common:errors.unknownComponent');
    return showCalls(ctx, parsePage(id.args.page) ?? 1);
  },

  async modal(ctx) {
    if (ids.decode(ctx.id)?.action !== 'link') throw new UserError('common:errors.unknownComponent');
    return finishLink(ctx);
  },
};

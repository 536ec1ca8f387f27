import { ApplicationCommandOptionType, PermissionFlagsBits } from 'discord.js';
import { stringOption } from '../../src/announcements/kinds/kind.ts';
import { mapsKind } from '../../src/features/maps/kind.ts';
import { UserError } from '../../src/core/user-error.ts';
import { defineSubscribeKind } from './kind.ts';

/** `/subscribe maps channel [role]`: the role is pinged by each featured map. */
export const subscribeMaps = defineSubscribeKind({
  kind: mapsKind,
  options: [{ type: ApplicationCommandOptionType.Role, name: 'role' }],

  async read(ctx, { role }, botPermissions) {
    if (!role) return Promise.resolve({ options: {} });
    if (role.id === ctx.interaction.guildId) throw new UserError('subscribe:errors.everyoneRole');
    const notes =
      role.mentionable || botPermissions.has(PermissionFlagsBits.MentionEveryone)
        ? []
        : [ctx.t.t('subscribe:notes.roleNotMentionable', { role: `<@&${role.id}>` })];
    return Promise.resolve({ options: { roleId: role.id }, notes });
  },

  describe(t, subscription) {
    const roleId = stringOption(subscription, 'roleId');
    return roleId === undefined
      ? t.t('subscriptions:details.noRole')
      : t.t('subscriptions:details.role', { role: `<@&${roleId}>` });
  },
});

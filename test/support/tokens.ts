import type { MessageRecord, PendingInteraction } from '../../src/dev/standin/index.ts';
import { command as meCommand } from '../../commands/me.ts';
import { commandOptions, routeCommands, type OptionValue, type World } from './announcements.ts';

/** `/me` through the real discord.js client, the Discord stand-in and the sandbox (its tokens). */
routeCommands(meCommand);

export const USER = '330000000000000001';
export const OTHER_USER = '330000000000000002';

export interface As {
  readonly userId?: string;
}

export function invokeMe(
  world: World,
  sub: string,
  values: Readonly<Record<string, OptionValue>> = {},
  as: As = {},
): PendingInteraction {
  return world.discord.invokeCommand({
    name: 'me',
    guildId: world.guildId,
    options: commandOptions('me', sub, values),
    user: { id: as.userId ?? USER },
  });
}

/** The custom id of the modal an interaction answered with; throws when it answered otherwise. */
export async function modalOf(pending: PendingInteraction): Promise<{ customId: string; data: unknown }> {
  const shown = await pending.response();
  if (shown.type !== 9) throw new Error(`expected a modal, got callback type ${shown.type}`);
  const data = shown.data as { custom_id: string };
  return { customId: data.custom_id, data };
}

/**
 * Answers the modal `pending` showed with `token`, choosing to be remembered or not (`remember`
 * undefined leaves the select as it is, which is "no").
 */
export function submitToken(
  world: World,
  pending: PendingInteraction,
  customId: string,
  token: string,
  remember?: 'yes' | 'no',
): PendingInteraction {
  return world.discord.submitModal(
    customId,
    { secret: token, ...(remember === undefined ? {} : { remember }) },
    { from: pending },
  );
}

/** `/me sub`, through the modal, answered with `token`. */
export async function throughModal(
  world: World,
  sub: string,
  token: string,
  remember?: 'yes' | 'no',
  values: Readonly<Record<string, OptionValue>> = {},
  as: As = {},
): Promise<MessageRecord> {
  const pending = invokeMe(world, sub, values, as);
  const { customId } = await modalOf(pending);
  return submitToken(world, pending, customId, token, remember).final();
}

export interface Button {
  readonly custom_id: string;
  readonly label?: string;
  readonly disabled?: boolean;
  readonly style?: number;
}

export function buttons(message: MessageRecord): Button[] {
  return (message.components as Array<{ components?: Button[] }>).flatMap((row) => row.components ?? []);
}

export function buttonLabelled(message: MessageRecord, label: string): Button {
  const found = buttons(message).find((button) => button.label === label);
  if (!found) throw new Error(`no button "${label}" in ${JSON.stringify(message.components)}`);
  return found;
}

export function bearerCalls(world: World): number {
  return world.sandbox.requests.entries().filter((entry) => entry.bearerPresent).length;
}

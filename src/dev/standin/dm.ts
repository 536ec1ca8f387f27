import type { DiscordState } from './state.ts';

/**
 * Direct messages in the stand-in: the bot opens a DM channel with `POST /users/@me/channels` (rest.ts)
 * and posts there as in any channel. A user who does not accept DMs from the bot (DMs closed for the
 * server, or the bot blocked) makes every message POST in that DM answer Discord's 403 50007, as Discord
 * does; opening the channel still works.
 */
export const CANNOT_MESSAGE_USER = { status: 403, code: 50007, message: 'Cannot send messages to this user' };

/** Whether the user accepts DMs from the bot from now on (default: yes); returns the DM channel's id. */
export function setDmsOpen(world: DiscordState, userId: string, open: boolean): string {
  world.ensureUser({ id: userId });
  const channel = world.dmChannelFor(userId);
  if (open) world.channelFailures.delete(channel.id);
  else world.channelFailures.set(channel.id, { ...CANNOT_MESSAGE_USER });
  return channel.id;
}

/** The id of the DM channel with the user (made if there is none yet). */
export function dmChannelId(world: DiscordState, userId: string): string {
  world.ensureUser({ id: userId });
  return world.dmChannelFor(userId).id;
}

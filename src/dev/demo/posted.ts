import { deliveryNonce } from '../../announcements/delivery.ts';
import { AlertRepository } from '../../features/alerts/store.ts';
import type { MessageRecord } from '../standin/index.ts';
import { saveAttachments } from './attachments.ts';
import { printMessage } from './print.ts';
import type { Stack } from './stack.ts';
import type { GameContext } from './steps.ts';

export type { Posted } from './steps.ts';

/**
 * What the bot posted on its own (not a reply to a command): each announcement, told apart by the bot's
 * own records — the delivery that made the message names its subscription, whose kind it is — and each
 * price alert, by the nonce it was sent with (one per alert and crossing). The demo prints each with what
 * it is and reports it, so that its test can tell that every kind was posted.
 */

/** A price alert's post, in the report beside the announcement kinds (alerts are not one of them). */
export const PRICE_ALERT = 'price alert';

/** The ids of every message the stand-in holds now: what a game step's new posts are told apart from. */
export function seenMessages(stack: Stack): Set<string> {
  return new Set(stack.discord.messages().map((message) => message.id));
}

/** The announcement kind of each message, from the delivery that posted it. */
async function announcementKinds(stack: Stack, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await stack.bot.services.db.kysely
    .selectFrom('deliveries')
    .innerJoin('subscriptions', 'subscriptions.id', 'deliveries.subscription_id')
    .select(['deliveries.message_id as messageId', 'subscriptions.kind as kind'])
    .where('deliveries.message_id', 'in', ids)
    .execute();
  return new Map(rows.flatMap((row) => (row.messageId === null ? [] : [[row.messageId, row.kind]])));
}

/** The nonce each alert's latest crossing was sent with, in the channel it went to. */
async function alertNonces(stack: Stack): Promise<Set<string>> {
  const repo = new AlertRepository(stack.bot.services.db);
  const nonces = new Set<string>();
  for (const skin of await repo.watchedSkins()) {
    for (const alert of await repo.forSkin(skin)) {
      if (alert.firedCount === 0) continue;
      const channelId = alert.channelId ?? stack.discord.dmChannelId(alert.userId);
      nonces.add(deliveryNonce(`alert:${alert.id}:${alert.firedCount}`, channelId));
    }
  }
  return nonces;
}

/** What the bot posted on its own since `seen`: each message with its kind (undefined: not known). */
async function newPosts(
  stack: Stack,
  seen: ReadonlySet<string>,
): Promise<Array<{ message: MessageRecord; kind: string | undefined }>> {
  const fresh = stack.discord
    .messages()
    .filter((m) => !seen.has(m.id) && m.kind === 'channel' && m.authorId === stack.discord.botUserId);
  const kinds = await announcementKinds(
    stack,
    fresh.map((m) => m.id),
  );
  const alerts = await alertNonces(stack);
  return fresh.map((message) => ({
    message,
    kind:
      kinds.get(message.id) ??
      (typeof message.nonce === 'string' && alerts.has(message.nonce) ? PRICE_ALERT : undefined),
  }));
}

function whereTo(stack: Stack, channelId: string): string {
  const channel = stack.bot.client.channels.cache.get(channelId);
  if (channel && 'name' in channel && channel.name) return `#${channel.name}`;
  return 'a direct message to the user';
}

/**
 * Prints every post the bot made since `seen`, each under a line that says where it went and what it is
 * (and whom it may ping), saves its images, and reports it.
 */
export async function showPosts(game: GameContext, seen: ReadonlySet<string>): Promise<void> {
  const { stack, write } = game;
  for (const { message, kind } of await newPosts(stack, seen)) {
    const what =
      kind === undefined ? 'a message' : kind === PRICE_ALERT ? 'a price alert' : `a “${kind}” announcement`;
    const pings = message.allowedMentions?.roles ?? [];
    const mentions = pings.length === 0 ? 'none' : pings.map((r) => `<@&${r}>`).join(', ');
    write(`  ${whereTo(stack, message.channelId)} receives ${what} (allowed mentions: ${mentions}):\n`);
    write(`${printMessage(message, '    ')}\n`);
    await saveAttachments(message, game.outDir, game.index, write);
    if (kind !== undefined) game.posted?.({ kind, channelId: message.channelId, messageId: message.id });
  }
}

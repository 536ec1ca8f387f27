import type { DemoClock } from './clans.ts';
import { saveAttachments } from './attachments.ts';
import { printMessage } from './print.ts';
import type { GameContext, Step } from './steps.ts';

/** The demo's game steps: something happens in the game, and the bot's announcements show it. */

/** The clan whose roster the sandbox changes every minute (`rosters`), and which the clan log follows. */
export const DEMO_CLAN = 'NoScope';

/** The messages a channel received since `before`, printed (and their images saved). */
export async function saveNewMessages(game: GameContext, channelId: string, before: number): Promise<void> {
  const channel = game.stack.bot.client.channels.cache.get(channelId);
  const label = channel && 'name' in channel ? `#${String(channel.name)}` : 'a DM';
  for (const message of game.stack.discord.messages(channelId).slice(before)) {
    if (message.kind !== 'channel') continue;
    game.write(`  ${label} receives:\n${printMessage(message, '    ')}\n`);
    await saveAttachments(message, game.outDir, game.index, game.write);
  }
}

/** A game event the poller picks up: the map is featured, and `#general` (subscribed to maps) gets it. */
export function featuredMapStep(): Step {
  return {
    kind: 'game',
    title: 'a map is featured in the game; the poller picks it up',
    run: async (game) => {
      const { stack } = game;
      const map = stack.sandbox.world.maps.find((m) => !m.featured && !m.hidden);
      if (!map) return;
      stack.sandbox.events.publish('map.featured', map.id);
      const before = stack.discord.messages(stack.channelId).length;
      const announcements = await stack.bot.announcements;
      await announcements?.pollOnce();
      await announcements?.flush();
      await saveNewMessages(game, stack.channelId, before);
    },
  };
}

/** The clan log: the roster changes over six minutes and the log posts them in one message. */
export function rosterStep(clock: DemoClock): Step {
  return {
    kind: 'game',
    title:
      `${DEMO_CLAN}'s roster changes over six minutes (a join, a promotion, a leave, a demotion, a score ` +
      'milestone, a new owner); the clan log reads it once and posts every change in one message',
    run: async (game) => {
      const { stack } = game;
      const announcements = await stack.bot.announcements;
      // The first read is recorded silently; the changes come after it.
      await announcements?.pollOnce();
      const before = stack.discord.messages(stack.channelId).length;
      clock.advance(6 * 60_000 + 1_000);
      await announcements?.pollOnce();
      await announcements?.flush();
      await saveNewMessages(game, stack.channelId, before);
    },
  };
}

/** A tracked player plays a ranked match; at the next look (five minutes on) `#general` gets it. */
export function trackedMatchStep(clock: DemoClock, player: (game: GameContext) => string): Step {
  return {
    kind: 'game',
    title:
      'the tracked player wins a ranked match (and the sandbox’s players play on); the next look at the player, ' +
      'five minutes on, posts its new ranked matches in #general, and the clan log its news',
    run: async (game) => {
      const { stack } = game;
      const announcements = await stack.bot.announcements;
      // The first look at a tracked player is its baseline: it posts nothing.
      await announcements?.pollOnce();
      const before = stack.discord.messages(stack.channelId).length;
      stack.sandbox.activity.play(player(game), { victory: 1 });
      clock.advance(5 * 60_000 + 1_000);
      await announcements?.pollOnce();
      await announcements?.flush();
      await saveNewMessages(game, stack.channelId, before);
    },
  };
}

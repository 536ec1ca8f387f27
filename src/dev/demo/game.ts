import { BackgroundScheduler } from '../../traffic/scheduler.ts';
import { followCapacity } from '../../traffic/capacity.ts';
import { CONFIRM_GAP_MS } from '../../features/alerts/crossing.ts';
import { AlertWatch, marketPriceReader } from '../../features/alerts/watch.ts';
import type { DemoClock } from './clans.ts';
import { seenMessages, showPosts } from './posted.ts';
import type { Stack } from './stack.ts';
import type { GameContext, Step } from './steps.ts';

/** The demo's game steps: something happens in the game, and the bot's announcements show it. */

/** The clan whose roster the sandbox changes every minute (`rosters`), and which the clan log follows. */
export const DEMO_CLAN = 'NoScope';

/** One poll of every announcement source, and every delivery it made waited for. */
async function pollAll(stack: Stack): Promise<void> {
  const announcements = await stack.bot.announcements;
  await announcements?.pollOnce();
  await announcements?.flush();
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
      const seen = seenMessages(stack);
      await pollAll(stack);
      await showPosts(game, seen);
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
      const seen = seenMessages(stack);
      // The first read is recorded silently; the changes come after it.
      await announcements?.pollOnce();
      clock.advance(6 * 60_000 + 1_000);
      await pollAll(stack);
      await showPosts(game, seen);
    },
  };
}

/**
 * The moderators' KPD feed: a player reports a suspected cheater (a new call), a minute later a KPD
 * officer bans them (the call's status and verdict change); each poll after posts it in `#general`.
 */
export function kpdStep(clock: DemoClock): Step {
  return {
    kind: 'game',
    title:
      'a player reports a suspected cheater in the game (a new KPD call); a minute later a KPD officer ' +
      'reviews it and bans them. The KPD feed (read with the moderator’s linked key) posts the new call in ' +
      '#general, then its verdict',
    run: async (game) => {
      const { stack } = game;
      const { samples } = stack.sandbox.world;
      const seen = seenMessages(stack);
      // The feed's first read of this server records the calls there are; only what comes after is posted.
      await pollAll(stack);
      clock.advance(60_000);
      const call = stack.sandbox.kpd.report(samples.player, samples.hackerPlayer);
      await pollAll(stack);
      clock.advance(60_000);
      stack.sandbox.kpd.review(call, samples.kpdPlayer, 1);
      await pollAll(stack);
      await showPosts(game, seen);
    },
  };
}

/**
 * The price alerts' watch, as the worker process runs it (`npm start` runs it there; the demo's bot runs
 * the announcement sources in its own process, without it): the same parts, over the bot's database.
 */
function alertWatch(stack: Stack): AlertWatch {
  const { services } = stack.bot;
  return new AlertWatch({
    db: services.db,
    read: marketPriceReader(services.api),
    scheduler: new BackgroundScheduler(),
    clock: services.clock,
    log: services.log.child({ part: 'alerts' }),
    rest: stack.bot.client.rest,
    translations: services.translations,
    capacityPerMinute: followCapacity(stack.config),
    demand: services.demand,
    settings: stack.config.follow,
  });
}

/**
 * A holder lists the skin at `price` KR, below the alerts' thresholds: the watch sees the lowest price
 * there, sees it again at its next check (a crossing holds for two checks in a row) and fires every alert
 * it crossed, each once: a DM, a channel post.
 */
export function priceDropStep(clock: DemoClock, skin: (stack: Stack) => number, price: number): Step {
  return {
    kind: 'game',
    title:
      `a player lists the skin at ${price} KR, below both alerts; the price-alert watch sees the lowest ` +
      'price there at two checks in a row and fires both alerts: a DM to the user and a post in #general',
    run: async (game) => {
      const { stack } = game;
      const seen = seenMessages(stack);
      stack.sandbox.market.list(skin(stack), price);
      const watch = alertWatch(stack);
      const run = {
        subscriptions: [],
        signal: new AbortController().signal,
        deliver: () => Promise.resolve(),
        spreadMs: 60_000,
      };
      await watch.poll(run);
      clock.advance(Math.max(CONFIRM_GAP_MS, await watch.plannedMs(run)) + 1_000);
      await watch.poll(run);
      await showPosts(game, seen);
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
      const seen = seenMessages(stack);
      // The first look at a tracked player is its baseline: it posts nothing.
      await announcements?.pollOnce();
      stack.sandbox.activity.play(player(game), { victory: 1 });
      clock.advance(5 * 60_000 + 1_000);
      await pollAll(stack);
      await showPosts(game, seen);
    },
  };
}

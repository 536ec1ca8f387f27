import type { Clan } from '../../src/dev/sandbox/index.ts';
import { remindersSource } from '../../src/features/turf/reminders/source.ts';
import { turfDigestSource } from '../../src/features/turf/digest/source.ts';
import type { ManualClock } from '../support/clock.ts';
import { posted, type World } from '../support/announcements.ts';

/**
 * What the digest and reminder tests share: the two sources (with a budget large enough that no read of
 * a test waits on the manual clock; `budget.test.ts` checks the real one), moving the clock to an instant,
 * and the sandbox's clans.
 */
export const ROOMY_BUDGET = { limit: 1_000, windowMs: 60_000 };

export const clanSources = () => [
  turfDigestSource({ budget: ROOMY_BUDGET }),
  remindersSource({ budget: ROOMY_BUDGET }),
];

/** Moves the manual clock forward to `at` (waking sleepers on the way). */
export async function toTime(clock: ManualClock, at: number): Promise<void> {
  if (at < clock.now()) throw new Error('the clock only moves forward');
  await clock.advance(at - clock.now());
}

export function clanNamed(world: World, name: string): Clan {
  const clan = world.sandbox.world.clans.find((c) => c.name === name);
  if (!clan) throw new Error(`no clan ${name}`);
  return clan;
}

/** The titles of the bot's posts in a channel that match `pattern`. */
export function titles(world: World, channelId: string, pattern: RegExp): string[] {
  return posted(world, channelId)
    .map((message) => message.embeds[0]?.title ?? '')
    .filter((title) => pattern.test(title));
}

import { REST } from 'discord.js';
import type { World } from './announcements.ts';
import { silentLog, translations } from './announcements.ts';
import { AlertWatch, type AlertHook, type PriceReader } from '../../src/features/alerts/watch.ts';
import { AlertRepository, type NewAlert, type PriceAlert } from '../../src/features/alerts/store.ts';
import { BackgroundScheduler } from '../../src/traffic/scheduler.ts';
import type { SourceRun } from '../../src/announcements/sources.ts';
import { demandReader } from '../../src/demand.ts';

export const USER = '300000000000000001';
export const SKIN = 7;

/** Prices the test sets by hand, per skin; `reads` counts the requests a poll made. */
export class FakePrices {
  readonly prices = new Map<number, number | undefined>();
  reads = 0;
  readonly read: PriceReader = (skin) => {
    this.reads += 1;
    return Promise.resolve(this.prices.get(skin));
  };
}

export function restFor(world: World): REST {
  return new REST({ api: world.discord.restUrl }).setToken(world.discord.token);
}

export function watchFor(
  world: World,
  prices: FakePrices,
  options: { holder?: string; hook?: AlertHook; claimTtlMs?: number; capacityPerMinute?: number } = {},
): AlertWatch {
  return new AlertWatch({
    db: world.db,
    demand: demandReader(world.db),
    read: prices.read,
    scheduler: new BackgroundScheduler(),
    clock: world.clock,
    log: silentLog,
    rest: restFor(world),
    translations,
    capacityPerMinute: options.capacityPerMinute ?? 20,
    claimTtlMs: options.claimTtlMs ?? 60_000,
    ...(options.holder === undefined ? {} : { holder: options.holder }),
    ...(options.hook === undefined ? {} : { hook: options.hook }),
  });
}

export function run(signal: AbortSignal = new AbortController().signal): SourceRun {
  return { subscriptions: [], signal, deliver: () => Promise.resolve(), spreadMs: 60_000 };
}

export async function addAlert(world: World, fields: Partial<NewAlert> = {}): Promise<PriceAlert> {
  const added = await new AlertRepository(world.db).add(
    {
      guildId: world.guildId,
      userId: USER,
      channelId: undefined,
      skinIndex: SKIN,
      skinName: 'Hostile <@&1> **Skin**',
      direction: 'below',
      threshold: 100,
      locale: 'en-US',
      ...fields,
    },
    { user: 10, guild: 50 },
    world.clock.now(),
  );
  if (added.status !== 'created') throw new Error(`not created: ${added.status}`);
  return added.alert;
}

/**
 * A crossing seen and confirmed: two checks, the interval apart, see the skin at its current price (an
 * alert fires only when two checks in a row see the price past its threshold).
 */
export async function pollTwice(world: World, watch: AlertWatch): Promise<void> {
  await watch.poll(run());
  await world.clock.advance(watch.intervalMs(1));
  await watch.poll(run());
}

/** Messages the bot posted in the user's DMs. */
export function dms(world: World, userId = USER) {
  return world.discord.messages(world.discord.dmChannelId(userId)).filter((m) => m.kind === 'channel');
}

import { setTimeout as sleep } from 'node:timers/promises';
import { PermissionFlagsBits } from 'discord.js';
import { systemClock, type Clock } from '../../core/clock.ts';
import { DIGEST_DELAY_MS } from '../../features/turf/digest/model.ts';
import { turfDay, turfDayDate } from '../../api/turf-days.ts';
import { seenMessages, showPosts } from './posted.ts';
import type { Stack } from './stack.ts';
import { firstSuggestion, type Actor, type GameContext, type Step } from './steps.ts';

/**
 * The demo's clan channel: a clan leader turns on the daily turf digest and an hour-before reminder, then
 * the demo moves its clock to an hour before the UTC turf day ends (the reminder) and past its end (the
 * digest). The clock is the real one plus an offset, so that everything else keeps running in real time.
 */
export class DemoClock implements Clock {
  #offset: number;

  /** `startsAt`: the time the demo begins at (now by default); the clock then runs in real time from it. */
  constructor(startsAt?: number) {
    this.#offset = startsAt === undefined ? 0 : startsAt - Date.now();
  }

  now(): number {
    return Date.now() + this.#offset;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }

  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.#offset += Math.max(0, ms);
  }

  /** Moves the clock forward to `at` (never back). */
  jumpTo(at: number): void {
    this.#offset += Math.max(0, at - this.now());
  }
}

const MINUTE = 60_000;
const BEFORE = 60;

interface ClanChannel {
  clanName: string;
  channelId: string;
  roleId: string;
  leadersId: string;
  /** When the reminder is due: the first hour-before-midnight (UTC) after the reminder was set. */
  dueAt: number;
}

/** Waits (real time, bounded) until the bot's gateway cache has seen the roles. */
export async function rolesSeen(stack: Stack, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const roles = stack.bot.client.guilds.cache.get(stack.guildId)?.roles.cache;
    if (ids.every((id) => roles?.has(id) === true)) return;
    await sleep(10);
  }
}

/** Waits (real time, bounded) until the bot's gateway cache has seen the channel. */
export async function channelSeen(stack: Stack, id: string): Promise<void> {
  for (let i = 0; i < 200 && !stack.bot.client.channels.cache.has(id); i += 1) await sleep(10);
}

/** The clan leading today's turf maps (it is likely to earn KR): the demo follows it. */
async function leadingClan(stack: Stack): Promise<string> {
  const status = await stack.bot.services.api.call('turfStatus', {}, { fresh: true });
  const top = status.maps
    .flatMap((map) => map.top_clans ?? [])
    .sort((a, b) => (b.points ?? 0) - (a.points ?? 0));
  return top[0]?.clan_name ?? stack.sandbox.world.samples.clan;
}

/**
 * Within this long of the reminder's minute, the demo lets the turf day end before the clan channel is set
 * up (the steps before it take a few seconds).
 */
const LATE_MS = 5 * MINUTE;

/**
 * When the reminder of a channel set up now is first due: an hour before the end of the UTC turf day. Late
 * in the day (past that minute, or nearly), the demo first moves its clock into the next turf day. Else the
 * reminder's first day would be tomorrow, and the jump to it would cross the end of today: today's digest,
 * the reminder and tomorrow's digest would all fall in two polls a second apart, more turf reads than their
 * budget gives in a minute, and the demo would wait a minute of real time for it. A clan sees each an hour
 * apart; so does the demo, at any hour.
 */
function firstDue(clock: DemoClock): number {
  const dueToday = (now: number) => turfDayDate(turfDay(now) + 1) - BEFORE * MINUTE;
  const now = clock.now();
  if (now > dueToday(now) - LATE_MS) clock.jumpTo(turfDayDate(turfDay(now) + 1) + MINUTE);
  return dueToday(clock.now());
}

async function setUp(stack: Stack, clock: DemoClock): Promise<ClanChannel> {
  const dueAt = firstDue(clock);
  const clanName = await leadingClan(stack);
  const channelId = stack.discord.addChannel(stack.guildId, { name: 'clan-turf' }).id;
  const squad = stack.discord.addRole(stack.guildId, { name: 'turf-squad' });
  const leaders = stack.discord.addRole(stack.guildId, {
    name: 'clan-leaders',
    permissions: PermissionFlagsBits.MentionEveryone,
  });
  await rolesSeen(stack, [squad.id, leaders.id]);
  await channelSeen(stack, channelId);
  return { clanName, channelId, roleId: squad.id, leadersId: leaders.id, dueAt };
}

async function pollAfterJump(game: GameContext, clock: DemoClock, at: number) {
  const { stack } = game;
  const seen = seenMessages(stack);
  clock.jumpTo(at);
  const announcements = await stack.bot.announcements;
  await announcements?.pollOnce();
  await announcements?.flush();
  await showPosts(game, seen);
}

/** The demo's clan channel steps, on the demo's clock. */
export function clanSteps(clock: DemoClock): Step[] {
  let channel: ClanChannel | undefined;
  const ready = (): ClanChannel => {
    if (!channel) throw new Error('the clan channel was not set up');
    return channel;
  };
  // A clan leader, in the clan's channel, who may mention every role.
  const leader = (): Actor => ({
    memberPermissions: PermissionFlagsBits.ManageGuild,
    memberRoles: [ready().leadersId],
    channelId: ready().channelId,
  });
  return [
    {
      kind: 'game',
      title:
        'a clan leader sets up the clan’s turf channel #clan-turf and a role @turf-squad, to follow the clan leading today’s turf maps',
      run: async (game) => {
        channel = await setUp(game.stack, clock);
      },
    },
    {
      command: 'subscribe',
      sub: 'turf',
      options: () => ({ channel: ready().channelId, clan: ready().clanName, digest: true, idle: true }),
      as: leader,
      note: 'the clan’s turf maps changing hands, and its daily digest with who scored nothing',
    },
    {
      command: 'remind',
      sub: 'turf',
      options: () => ({
        clan: ready().clanName,
        before: BEFORE,
        role: ready().roleId,
        channel: ready().channelId,
      }),
      as: leader,
      note: `a post ${BEFORE} minutes before the UTC turf day ends, pinging only @turf-squad`,
    },
    { command: 'remind', sub: 'list', as: leader, note: 'the server’s turf reminders, with their last post' },
    {
      kind: 'game',
      title: `the clock moves to ${BEFORE} minutes before the UTC turf day ends: the reminder posts the clan’s standing on each turf map, pinging only @turf-squad`,
      run: (game) => pollAfterJump(game, clock, ready().dueAt + 1_000),
    },
    {
      kind: 'game',
      title:
        'the UTC turf day ends: two minutes later the daily digest posts the clan’s place, points, KR, top contributors, payouts and the members who scored nothing (turf maps changing hands are posted too)',
      run: (game) => pollAfterJump(game, clock, ready().dueAt + BEFORE * MINUTE + DIGEST_DELAY_MS + 1_000),
    },
    {
      command: 'remind',
      sub: 'remove',
      options: async (s) => ({ id: await firstSuggestion(s, 'remind', 'remove', 'id') }),
      as: leader,
      note: 'the reminder removed again (its id picked from autocomplete)',
    },
  ];
}

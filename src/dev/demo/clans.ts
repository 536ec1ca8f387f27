import { setTimeout as sleep } from 'node:timers/promises';
import { PermissionFlagsBits } from 'discord.js';
import { systemClock, type Clock } from '../../core/clock.ts';
import { DIGEST_DELAY_MS } from '../../features/turf/digest/model.ts';
import { turfDay, turfDayDate } from '../../api/turf-days.ts';
import type { MessageRecord, PendingInteraction } from '../standin/index.ts';
import { printMessage } from './print.ts';
import type { Stack } from './stack.ts';

/**
 * The demo's clan channel: a clan leader turns on the daily turf digest and an hour-before reminder, then
 * the demo moves its clock to an hour before the UTC turf day ends (the reminder) and past its end (the
 * digest). The clock is the real one plus an offset, so that everything else keeps running in real time.
 */
export class DemoClock implements Clock {
  #offset = 0;

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

/** A step of the demo that is not one command: what `main.ts` runs and titles. */
export interface ClanStep {
  readonly kind: 'game';
  readonly title: string;
  readonly run: (stack: Stack) => Promise<void>;
}

const MINUTE = 60_000;
const BEFORE = 60;

interface ClanChannel {
  clanName: string;
  channelId: string;
  roleId: string;
  /** When the reminder is due: the first hour-before-midnight (UTC) after the reminder was set. */
  dueAt: number;
}

const state: { channel?: ClanChannel } = {};

function write(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function answer(pending: PendingInteraction): Promise<MessageRecord> {
  const message = await pending.final(30_000);
  write(printMessage(message));
  return message;
}

/** Waits (real time, bounded) until the bot's gateway cache has seen the roles. */
async function rolesSeen(stack: Stack, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const roles = stack.bot.client.guilds.cache.get(stack.guildId)?.roles.cache;
    if (ids.every((id) => roles?.has(id) === true)) return;
    await sleep(10);
  }
}

/** The clan leading today's first turf map (it is likely to earn KR): the demo follows it. */
async function leadingClan(stack: Stack): Promise<string> {
  const status = await stack.bot.services.api.call('turfStatus', {}, { fresh: true });
  const top = status.maps
    .flatMap((map) => map.top_clans ?? [])
    .sort((a, b) => (b.points ?? 0) - (a.points ?? 0));
  return top[0]?.clan_name ?? stack.sandbox.world.samples.clan;
}

function printNew(stack: Stack, channels: ReadonlyMap<string, number>): void {
  for (const [channelId, before] of channels) {
    const name = stack.bot.client.channels.cache.get(channelId);
    const label = name && 'name' in name ? `#${String(name.name)}` : channelId;
    for (const message of stack.discord.messages(channelId).slice(before)) {
      if (message.kind !== 'channel') continue;
      const pings = message.allowedMentions?.roles ?? [];
      write(
        `  ${label} receives (allowed mentions: ${pings.length === 0 ? 'none' : pings.map((r) => `<@&${r}>`).join(', ')}):`,
      );
      write(printMessage(message, '    '));
    }
  }
}

function counts(stack: Stack, ids: readonly string[]): Map<string, number> {
  return new Map(ids.map((id) => [id, stack.discord.messages(id).length]));
}

async function setUp(stack: Stack, clock: Clock): Promise<void> {
  const clanName = await leadingClan(stack);
  const channelId = stack.discord.addChannel(stack.guildId, { name: 'clan-turf' }).id;
  const squad = stack.discord.addRole(stack.guildId, { name: 'turf-squad' });
  const leaders = stack.discord.addRole(stack.guildId, {
    name: 'clan-leaders',
    permissions: PermissionFlagsBits.MentionEveryone,
  });
  await rolesSeen(stack, [squad.id, leaders.id]);
  const as = { memberPermissions: PermissionFlagsBits.ManageGuild, memberRoles: [leaders.id], channelId };
  write(
    `\n> /subscribe turf channel:#clan-turf clan:${clanName} digest:True idle:True   (the daily digest, with who scored nothing)`,
  );
  await answer(
    stack.invoke('subscribe', 'turf', { channel: channelId, clan: clanName, digest: true, idle: true }, as),
  );
  write(
    `\n> /remind turf clan:${clanName} before:${BEFORE} role:@turf-squad channel:#clan-turf   (as a clan leader who may mention every role)`,
  );
  await answer(
    stack.invoke(
      'remind',
      'turf',
      { clan: clanName, before: BEFORE, role: squad.id, channel: channelId },
      as,
    ),
  );
  write('\n> /remind list');
  await answer(stack.invoke('remind', 'list', {}, as));
  const today = turfDay(clock.now());
  const dueToday = turfDayDate(today + 1) - BEFORE * MINUTE;
  // Set after today's minute (the demo runs late in the UTC day): the reminder's first day is tomorrow.
  const dueAt = clock.now() < dueToday ? dueToday : dueToday + turfDayDate(1) - turfDayDate(0);
  state.channel = { clanName, channelId, roleId: squad.id, dueAt };
}

async function pollAfterJump(stack: Stack, clock: DemoClock, at: number): Promise<void> {
  const channel = state.channel;
  if (!channel) return;
  const watched = counts(stack, [channel.channelId, stack.channelId]);
  clock.jumpTo(at);
  const announcements = await stack.bot.announcements;
  await announcements?.pollOnce();
  await announcements?.flush();
  printNew(stack, watched);
}

/** The demo's clan channel steps, on the demo's clock. */
export function clanSteps(clock: DemoClock): ClanStep[] {
  return [
    {
      kind: 'game',
      title:
        'a clan leader sets up the clan’s turf channel: the daily digest and a reminder an hour before the day ends',
      run: (stack) => setUp(stack, clock),
    },
    {
      kind: 'game',
      title: `the clock moves to ${BEFORE} minutes before the UTC turf day ends: the reminder posts the clan’s standing on each turf map, pinging only @turf-squad`,
      run: (stack) => pollAfterJump(stack, clock, (state.channel?.dueAt ?? clock.now()) + 1_000),
    },
    {
      kind: 'game',
      title:
        'the UTC turf day ends: two minutes later the daily digest posts the clan’s place, points, KR, top contributors, payouts and the members who scored nothing (turf maps changing hands are posted too)',
      run: (stack) =>
        pollAfterJump(
          stack,
          clock,
          (state.channel?.dueAt ?? clock.now()) + BEFORE * MINUTE + DIGEST_DELAY_MS + 1_000,
        ),
    },
  ];
}

import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { MessageRecord, PendingInteraction } from '../standin/index.ts';
import { printMessage, setPrintClock } from './print.ts';
import { DemoClock, clanSteps } from './clans.ts';
import { startStack, type OptionValues, type Stack } from './stack.ts';

/**
 * `npm run demo`: the real bot between the bundled game API sandbox and a local Discord stand-in, fully
 * offline and with no token. It plays a scripted session of every command, prints each reply as text
 * and writes the chart images to `demo-output/`.
 */
interface CommandStep {
  readonly kind?: undefined;
  readonly command: string;
  readonly sub?: string;
  readonly options?: (stack: Stack) => OptionValues | Promise<OptionValues>;
  /** After the reply: click the button (its label, or one chosen from the sandbox) or pick the menu entry. */
  readonly then?: { readonly click?: string | ((stack: Stack) => string); readonly pick?: string };
  /** What the step shows, printed in the transcript under the command. */
  readonly note?: string;
  readonly locale?: string;
  /** Run as a member with Manage Server (subscriptions and moderator commands need it). */
  readonly manager?: boolean;
  /** The command opens a modal: what to type into its one field. */
  readonly modal?: (stack: Stack) => string;
}

/** A step that is not a command: something happening in the game, shown through the bot. */
interface GameStep {
  readonly kind: 'game';
  readonly title: string;
  readonly run: (stack: Stack, outDir: string, index: number) => Promise<void>;
}

type Step = CommandStep | GameStep;

const MANAGE_GUILD = 1n << 5n;

/** The clan whose roster the sandbox changes every minute (`rosters`), and which the clan log follows. */
const DEMO_CLAN = 'NoScope';

/**
 * The demo's clock, shared by the sandbox and the bot: real time, plus the minutes a game step jumps ahead
 * (the clan log reads a roster every five minutes; the demo does not wait them out).
 */
const demoClock = new DemoClock();

const samples = (stack: Stack) => stack.sandbox.world.samples;

const DAY_MS = 86_400_000;
/** Yesterday's date (UTC), as a user types the `day` option. */
const yesterday = () => new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);

/** The clan that earned most from turf this season, from the sandbox's own board. */
async function topEarner(stack: Stack): Promise<string> {
  const reply = await fetch(`${stack.sandbox.urls.base}/territorial-wars/leaderboards/top-grossing-clans`);
  const body = (await reply.json()) as { data: { rows: Array<{ clan_name: string }> } };
  return body.data.rows[0]?.clan_name ?? samples(stack).clan;
}

/** The turf-war centre and the clan page (issue 20, parts 2 and 5). */
const CLAN_TURF_STEPS: readonly Step[] = [
  {
    command: 'turf',
    sub: 'leaderboard',
    options: () => ({ board: 'clans' }),
    then: { click: 'Next' },
    note: "today's top turf clans by points, 25 a page (the standings grow through the UTC day)",
  },
  {
    command: 'turf',
    sub: 'leaderboard',
    options: () => ({ board: 'clans', day: yesterday(), map: 2 }),
    note: "yesterday's board on one map: the day is a date, the map a name",
  },
  {
    command: 'turf',
    sub: 'leaderboard',
    options: () => ({ board: 'players' }),
    note: "the season's top turf players (a slow board upstream: the reply is deferred first)",
  },
  {
    command: 'turf',
    sub: 'leaderboard',
    options: () => ({ board: 'grossing', day: yesterday() }),
    note: 'the clans that earned most this season; a day does not apply to it, and the reply says so',
  },
  {
    command: 'turf',
    sub: 'payouts',
    options: async (s) => ({ clan: await topEarner(s) }),
    note: "who in the clan was paid what over the season's finished days",
  },
  {
    command: 'turf',
    sub: 'payouts',
    options: async (s) => ({ clan: await topEarner(s), day: yesterday() }),
    note: 'the same clan, one day: who was paid what for yesterday',
  },
  {
    command: 'turf',
    sub: 'clan',
    options: (s) => ({ name: samples(s).clan.toLowerCase() }),
    note: 'clan names are exact: the wrong case is not found, with a "did you mean" button',
  },
  {
    command: 'clan',
    sub: 'recruitment',
    then: { click: (s) => s.sandbox.world.clans.find((c) => c.recruiting)?.name ?? 'Next' },
    note: "the recruitment board; each clan's button opens its profile (with a way back)",
  },
  {
    command: 'clan',
    sub: 'profile',
    options: () => ({ name: '*_~|Ghosts|~_*' }),
    note: 'a clan whose name, message of the day and split mode are full of markup: all shown as typed',
  },
];

const SCRIPT: readonly Step[] = [
  {
    command: 'player',
    sub: 'profile',
    options: (s) => ({ name: samples(s).player }),
    then: { pick: 'ranked' },
  },
  {
    command: 'player',
    sub: 'matches',
    options: (s) => ({ name: samples(s).rankedPlayer }),
    then: { click: 'Next' },
  },
  { command: 'player', sub: 'inventory', options: (s) => ({ name: samples(s).player }) },
  { command: 'player', sub: 'listings', options: (s) => ({ name: samples(s).player }) },
  { command: 'player', sub: 'posts', options: (s) => ({ name: samples(s).player }) },
  { command: 'player', sub: 'profile', options: (s) => ({ name: samples(s).player }), locale: 'de' },
  {
    command: 'clan',
    sub: 'profile',
    options: (s) => ({ name: samples(s).clan }),
    note: "a clan's profile, with its message of the day and how it splits turf earnings",
  },
  { command: 'clan', sub: 'members', options: (s) => ({ name: samples(s).clan }), then: { click: 'Next' } },
  { command: 'map', sub: 'info', options: (s) => ({ name: samples(s).timeBoardMap }) },
  { command: 'map', sub: 'leaderboard', options: (s) => ({ name: samples(s).timeBoardMap }) },
  { command: 'map', sub: 'featured' },
  { command: 'mods', sub: 'list', then: { click: 'Next' } },
  { command: 'mods', sub: 'info', options: (s) => ({ name: samples(s).mod }) },
  { command: 'market', sub: 'skin', options: (s) => ({ skin: samples(s).skinIndex, days: 60 }) },
  { command: 'match', options: (s) => ({ id: samples(s).matchId }) },
  { command: 'leaderboard', sub: 'ranked', options: () => ({ region: 3 }), then: { click: 'Next' } },
  { command: 'turf', sub: 'status' },
  {
    command: 'turf',
    sub: 'clan',
    options: (s) => ({ name: samples(s).clan }),
    note: "a clan's turf day: its standing, earnings, and who played on each map today (points, kills, deaths)",
  },
  { command: 'turf', sub: 'player', options: (s) => ({ name: samples(s).player }) },
  ...CLAN_TURF_STEPS,
  { command: 'lobbies' },
  { command: 'player', sub: 'profile', options: () => ({ name: 'nobody-by-this-name' }) },
  { command: 'subscribe', sub: 'maps', options: (s) => ({ channel: s.channelId }), manager: true },
  { command: 'subscribe', sub: 'turf', options: (s) => ({ channel: s.channelId }), manager: true },
  {
    kind: 'game',
    title: 'a map is featured in the game; the poller picks it up',
    run: async (stack, outDir, index) => {
      const map = stack.sandbox.world.maps.find((m) => !m.featured && !m.hidden);
      if (!map) return;
      stack.sandbox.events.publish('map.featured', map.id);
      const announcements = await stack.bot.announcements;
      const before = stack.discord.messages(stack.channelId).length;
      await announcements?.pollOnce();
      await announcements?.flush();
      for (const message of stack.discord.messages(stack.channelId).slice(before)) {
        process.stdout.write(`  #general receives:\n${printMessage(message, '    ')}\n`);
        await saveAttachments(message, outDir, index);
      }
    },
  },
  {
    command: 'subscribe',
    sub: 'clan-log',
    options: (s) => ({ channel: s.channelId, clan: DEMO_CLAN, events: 'all', milestone: 10_000 }),
    manager: true,
  },
  {
    kind: 'game',
    title:
      `${DEMO_CLAN}'s roster changes over six minutes (a join, a promotion, a leave, a demotion, a score ` +
      'milestone, a new owner); the clan log reads it once and posts every change in one message',
    run: async (stack, outDir, index) => {
      const announcements = await stack.bot.announcements;
      // The first read is the clan log's baseline: it posts nothing.
      await announcements?.pollOnce();
      const before = stack.discord.messages(stack.channelId).length;
      demoClock.advance(6 * 60_000 + 1_000);
      await announcements?.pollOnce();
      await announcements?.flush();
      for (const message of stack.discord.messages(stack.channelId).slice(before)) {
        process.stdout.write(`  #general receives:\n${printMessage(message, '    ')}\n`);
        await saveAttachments(message, outDir, index);
      }
    },
  },
  { command: 'subscriptions', manager: true },
  { command: 'kpd', sub: 'link', manager: true, modal: (s) => s.sandbox.keys.kpd },
  { command: 'kpd', sub: 'calls', manager: true },
  {
    command: 'me',
    sub: 'wallet',
    modal: (s) => s.sandbox.issueToken({ playerName: s.sandbox.world.samples.rankedPlayer }),
  },
  { command: 'link', sub: 'name', options: (s) => ({ player: samples(s).player }) },
  // Last: they move the clock forward to the end of the UTC turf day.
  ...clanSteps(demoClock),
];

function describeStep(step: CommandStep, options: OptionValues): string {
  const shown = Object.entries(options).map(([key, value]) => `${key}:${String(value)}`);
  return [`/${step.command}`, step.sub, ...shown].filter(Boolean).join(' ');
}

function findComponent(
  message: MessageRecord,
  label: string,
): { customId: string; kind: 'button' | 'menu'; value?: string } | undefined {
  for (const row of message.components) {
    for (const part of ('components' in row ? row.components : []) as unknown as Array<
      Record<string, unknown>
    >) {
      if (part.type === 2 && typeof part.label === 'string' && part.label.includes(label) && !part.disabled) {
        return { customId: String(part.custom_id), kind: 'button' };
      }
      if (part.type === 3) {
        const option = (part.options as Array<{ value: string }>).find((o) => o.value === label);
        if (option) return { customId: String(part.custom_id), kind: 'menu', value: option.value };
      }
    }
  }
  return undefined;
}

async function saveAttachments(message: MessageRecord, outDir: string, index: number): Promise<void> {
  for (const file of message.attachments) {
    const path = join(outDir, `${String(index).padStart(2, '0')}-${file.filename}`);
    await writeFile(path, file.bytes);
    process.stdout.write(`  ↳ chart written to ${path}\n`);
  }
}

async function show(pending: PendingInteraction, outDir: string, index: number): Promise<MessageRecord> {
  const first = await pending.response(15_000);
  const message = await pending.final(30_000);
  const deferred =
    first.type === 5 || first.type === 6 ? ` (deferred in ${Math.round(first.afterMs)} ms)` : '';
  process.stdout.write(`${printMessage(message)}\n  ↳ answered${deferred}\n`);
  await saveAttachments(message, outDir, index);
  return message;
}

/** A command that answers with a form: fill its one field (a secret, shown cut here) and submit. */
async function submitModal(
  stack: Stack,
  pending: PendingInteraction,
  value: string,
  permissions: bigint | undefined,
): Promise<PendingInteraction> {
  const first = await pending.response(15_000);
  if (first.type !== 9) return pending;
  const modal = first.data as { custom_id: string; title?: string; components: unknown[] };
  const field = /"custom_id":"([^"]+)"/.exec(JSON.stringify(modal.components))?.[1] ?? 'secret';
  process.stdout.write(
    `  ⧉ a form opens: "${modal.title ?? ''}"; the user pastes ${value.slice(0, 7)}… and submits\n`,
  );
  return stack.discord.submitModal(
    modal.custom_id,
    { [field]: value },
    { from: pending, ...(permissions === undefined ? {} : { memberPermissions: permissions }) },
  );
}

async function main(): Promise<void> {
  setPrintClock(() => demoClock.now());
  const outDir = resolve('demo-output');
  await mkdir(outDir, { recursive: true });
  process.stdout.write('Starting the game API sandbox, the Discord stand-in and the bot…\n');
  const stack = await startStack({
    // A few players play a ranked match every 10 minutes: /track has something to post.
    sandbox: {
      latency: { marketSkinColdMs: 1_500, marketSkinWarmMs: 300 },
      activity: { everyMs: 10 * 60_000, players: 3 },
      // A clan's roster changes every minute: the clan log has something to post.
      rosters: { everyMs: 60_000, clan: DEMO_CLAN },
      now: () => demoClock.now(),
    },
    clock: demoClock,
    // A throwaway key for this run: it encrypts the moderator key the demo links.
    env: { SECRET_KEY: randomBytes(32).toString('base64') },
    // The demo polls right after each game event instead of every EVENTS_POLL_SECONDS.
    announcements: { autoStart: false },
  });
  const loaded = new Set(stack.bot.commands.map((command) => command.json.name));
  process.stdout.write(`Ready: ${loaded.size} commands (${[...loaded].join(', ')}).\n`);
  try {
    let index = 0;
    for (const step of SCRIPT) {
      index += 1;
      if (step.kind === 'game') {
        process.stdout.write(`\n~ In the game: ${step.title}\n`);
        await step.run(stack, outDir, index);
        continue;
      }
      if (!loaded.has(step.command)) {
        process.stdout.write(`\n> /${step.command}: not part of this build, skipped\n`);
        continue;
      }
      const options = (await step.options?.(stack)) ?? {};
      process.stdout.write(
        `\n> ${describeStep(step, options)}${step.locale ? `   (as a ${step.locale} user)` : ''}\n`,
      );
      if (step.note) process.stdout.write(`  — ${step.note}\n`);
      const permissions = step.manager ? MANAGE_GUILD : undefined;
      let pending = stack.invoke(step.command, step.sub, options, {
        ...(step.locale ? { locale: step.locale } : {}),
        ...(permissions === undefined ? {} : { memberPermissions: permissions }),
      });
      if (step.modal) pending = await submitModal(stack, pending, step.modal(stack), permissions);
      const message = await show(pending, outDir, index);
      const click = step.then?.click;
      const label = (typeof click === 'function' ? click(stack) : click) ?? step.then?.pick;
      const target = label === undefined ? undefined : findComponent(message, label);
      if (label !== undefined && target) {
        process.stdout.write(`\n  * ${target.kind === 'menu' ? 'picks' : 'clicks'} "${label}"\n`);
        const pending =
          target.kind === 'menu'
            ? stack.discord.selectMenu(message, target.customId, [target.value ?? label])
            : stack.discord.clickButton(message, target.customId);
        await show(pending, outDir, index);
      }
    }
    process.stdout.write(`\nDone. Chart images are in ${outDir}\n`);
  } finally {
    await stack.stop();
  }
}

await main();

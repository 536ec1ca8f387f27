import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { MessageRecord, PendingInteraction } from '../standin/index.ts';
import { printMessage } from './print.ts';
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
  readonly options?: (stack: Stack) => OptionValues;
  /** After the reply: click the button or pick the menu entry with this label. */
  readonly then?: { readonly click?: string; readonly pick?: string };
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

const samples = (stack: Stack) => stack.sandbox.world.samples;
/** Real time, which the clan channel's steps move forward to a turf day's end. */
const clock = new DemoClock();

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
  { command: 'clan', sub: 'profile', options: (s) => ({ name: samples(s).clan }) },
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
  { command: 'turf', sub: 'clan', options: (s) => ({ name: samples(s).clan }) },
  { command: 'turf', sub: 'player', options: (s) => ({ name: samples(s).player }) },
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
  ...clanSteps(clock),
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
  const outDir = resolve('demo-output');
  await mkdir(outDir, { recursive: true });
  process.stdout.write('Starting the game API sandbox, the Discord stand-in and the bot…\n');
  const stack = await startStack({
    // A few players play a ranked match every 10 minutes: /track has something to post.
    sandbox: {
      latency: { marketSkinColdMs: 1_500, marketSkinWarmMs: 300 },
      activity: { everyMs: 10 * 60_000, players: 3 },
    },
    // A throwaway key for this run: it encrypts the moderator key the demo links.
    env: { SECRET_KEY: randomBytes(32).toString('base64') },
    // The demo polls right after each game event instead of every EVENTS_POLL_SECONDS.
    announcements: { autoStart: false },
    clock,
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
      const options = step.options?.(stack) ?? {};
      process.stdout.write(
        `\n> ${describeStep(step, options)}${step.locale ? `   (as a ${step.locale} user)` : ''}\n`,
      );
      const permissions = step.manager ? MANAGE_GUILD : undefined;
      let pending = stack.invoke(step.command, step.sub, options, {
        ...(step.locale ? { locale: step.locale } : {}),
        ...(permissions === undefined ? {} : { memberPermissions: permissions }),
      });
      if (step.modal) pending = await submitModal(stack, pending, step.modal(stack), permissions);
      const message = await show(pending, outDir, index);
      const label = step.then?.click ?? step.then?.pick;
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

import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { MessageRecord, PendingInteraction } from '../standin/discord/index.ts';
import { printMessage } from './print.ts';
import { startStack, type OptionValues, type Stack } from './stack.ts';

/**
 * `npm run demo`: the real bot between the bundled game API sandbox and a local Discord stand-in, fully
 * offline and with no token. It plays a scripted session of every command, prints each reply as text
 * and writes the chart images to `demo-output/`.
 */
interface Step {
  readonly command: string;
  readonly sub?: string;
  readonly options?: (stack: Stack) => OptionValues;
  /** After the reply: click the button or pick the menu entry with this label. */
  readonly then?: { readonly click?: string; readonly pick?: string };
  readonly locale?: string;
}

const samples = (stack: Stack) => stack.sandbox.world.samples;

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
];

function describeStep(step: Step, options: OptionValues): string {
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

async function show(pending: PendingInteraction, outDir: string, index: number): Promise<MessageRecord> {
  const first = await pending.response(15_000);
  const message = await pending.final(30_000);
  const deferred =
    first.type === 5 || first.type === 6 ? ` (deferred in ${Math.round(first.afterMs)} ms)` : '';
  process.stdout.write(`${printMessage(message)}\n  ↳ answered${deferred}\n`);
  for (const file of message.attachments) {
    const path = join(outDir, `${String(index).padStart(2, '0')}-${file.filename}`);
    await writeFile(path, file.bytes);
    process.stdout.write(`  ↳ chart written to ${path}\n`);
  }
  return message;
}

async function main(): Promise<void> {
  const outDir = resolve('demo-output');
  await mkdir(outDir, { recursive: true });
  process.stdout.write('Starting the game API sandbox, the Discord stand-in and the bot…\n');
  const stack = await startStack({
    sandbox: { latency: { marketSkinColdMs: 1_500, marketSkinWarmMs: 300 } },
  });
  const loaded = new Set(stack.bot.commands.map((command) => command.json.name));
  process.stdout.write(`Ready: ${loaded.size} commands (${[...loaded].join(', ')}).\n`);
  try {
    let index = 0;
    for (const step of SCRIPT) {
      index += 1;
      if (!loaded.has(step.command)) {
        process.stdout.write(`\n> /${step.command}: not part of this build, skipped\n`);
        continue;
      }
      const options = step.options?.(stack) ?? {};
      process.stdout.write(
        `\n> ${describeStep(step, options)}${step.locale ? `   (as a ${step.locale} user)` : ''}\n`,
      );
      const message = await show(
        stack.invoke(step.command, step.sub, options, step.locale ? { locale: step.locale } : {}),
        outDir,
        index,
      );
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

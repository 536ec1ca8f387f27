import type { MessageRecord, PendingInteraction } from '../standin/index.ts';
import { DemoClock } from './clans.ts';
import { ReplyJudge, enabledButtons, type Outcome } from './outcome.ts';
import { printMessage, setPrintClock } from './print.ts';
import { demoScript } from './script.ts';
import { DEMO_CLAN } from './game.ts';
import { saveAttachments } from './attachments.ts';
import { startStack, type OptionValues, type Stack, type StackOptions } from './stack.ts';
import { stepKey, type Actor, type CommandStep, type Expected, type Posted } from './steps.ts';
import { randomBytes } from 'node:crypto';

/**
 * `npm run demo`'s session: the real bot between the bundled game API sandbox and the local Discord
 * stand-in, every command and subcommand played in turn, each reply printed as text (and its images
 * written to `outDir`). Each reply is judged by its title only (an answer, a "not found", an error), so
 * that the replies may change without the demo noticing; a reply that is not what its step expects is a
 * problem, and so is a step that throws.
 */
export interface DemoOptions {
  /** Where the chart images go (a folder of this run's own). */
  readonly outDir: string;
  /** The transcript's lines; standard output by default. */
  readonly write?: (text: string) => void;
  /** Sandbox tuning on top of the demo's (its latencies). */
  readonly sandbox?: StackOptions['sandbox'];
  /** The bot's logger (tests silence it); warnings as JSON lines on standard output by default. */
  readonly logger?: StackOptions['logger'];
  /**
   * Run the bot without a developer key (no GAME_API_KEY): the commands the game tier can answer do, and
   * a step of one that cannot is expected to say politely that it needs a key.
   */
  readonly keyless?: boolean;
  /**
   * The time the demo's clock starts at (now by default): a test plays the demo at a chosen hour of the
   * UTC day, as the clan channel steps depend on it.
   */
  readonly startsAt?: number;
}

export interface DemoReport {
  /** `command` or `command sub`, each invoked at least once, in the order first played. */
  readonly played: readonly string[];
  /** The commands the bot loaded (those the demo could play). */
  readonly loaded: readonly string[];
  /** Every command, click, pick and modal the demo sent, with how its reply read. */
  readonly replies: ReadonlyArray<{
    readonly step: string;
    readonly outcome: Outcome;
    readonly text: string;
  }>;
  /** What went wrong: a reply that is not what its step expects, a step that failed. Empty on success. */
  readonly problems: readonly string[];
  /** Every announcement and price alert the bot posted on its own, with its kind, in order. */
  readonly posted: readonly Posted[];
  readonly durationMs: number;
}

const MANAGE_GUILD = 1n << 5n;

interface Run {
  readonly stack: Stack;
  readonly outDir: string;
  readonly write: (text: string) => void;
  readonly judge: ReplyJudge;
  readonly played: Set<string>;
  readonly replies: Array<{ step: string; outcome: Outcome; text: string }>;
  readonly problems: string[];
  readonly posted: Posted[];
  readonly keyless: boolean;
  /** The commands that answered "this needs a developer key" in this (keyless) run. */
  readonly needsKey: Set<string>;
}

export async function runDemo(options: DemoOptions): Promise<DemoReport> {
  const started = Date.now();
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const clock = new DemoClock(options.startsAt);
  setPrintClock(() => clock.now());
  write('Starting the game API sandbox, the Discord stand-in and the bot…\n');
  const stack = await startStack({
    sandbox: {
      latency: { marketSkinColdMs: 1_500, marketSkinWarmMs: 300 },
      // A few players play a ranked match every 10 minutes: /track has something to post.
      activity: { everyMs: 10 * 60_000, players: 3 },
      // A clan's roster changes every minute: the clan log has something to post.
      rosters: { everyMs: 60_000, clan: DEMO_CLAN },
      now: () => clock.now(),
      ...options.sandbox,
    },
    clock,
    // A throwaway key for this run: it encrypts the moderator key the demo links.
    env: {
      SECRET_KEY: randomBytes(32).toString('base64'),
      // An empty value is no value: the bot runs as one whose operators have no developer key.
      ...(options.keyless ? { GAME_API_KEY: '' } : {}),
    },
    // The demo polls right after each game event instead of every EVENTS_POLL_SECONDS.
    announcements: { autoStart: false },
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const loaded = stack.bot.commands.map((command) => command.json.name);
  write(`Ready: ${loaded.length} commands (${loaded.join(', ')}).\n`);
  if (options.keyless)
    write('Keyless run: no GAME_API_KEY; what the game tier carries is answered from it.\n');
  const run: Run = {
    stack,
    outDir: options.outDir,
    write,
    judge: new ReplyJudge(),
    played: new Set(),
    replies: [],
    problems: [],
    posted: [],
    keyless: options.keyless === true,
    needsKey: new Set(),
  };
  try {
    await playAll(run, new Set(loaded), clock);
  } finally {
    await stack.stop();
  }
  return {
    played: [...run.played],
    loaded,
    replies: run.replies,
    problems: run.problems,
    posted: run.posted,
    durationMs: Date.now() - started,
  };
}

async function playAll(run: Run, loaded: ReadonlySet<string>, clock: DemoClock): Promise<void> {
  let index = 0;
  for (const step of demoScript(clock)) {
    index += 1;
    try {
      if (step.kind === 'section') {
        run.write(`\n\n══ ${step.title} ══\n`);
      } else if (step.kind === 'game') {
        run.write(`\n~ In the game: ${step.title}\n`);
        const posted = (post: Posted) => run.posted.push(post);
        await step.run({ stack: run.stack, outDir: run.outDir, index, write: run.write, posted });
      } else if (!loaded.has(step.command)) {
        run.write(`\n> /${step.command}: not part of this build, skipped\n`);
      } else {
        await playCommand(run, step, index);
      }
    } catch (error) {
      if (step.kind === undefined && run.needsKey.has(step.command)) {
        // e.g. `/track remove` after `/track add` needed a key: there is nothing of it to remove.
        run.write(`  (skipped: an earlier /${step.command} step needed a developer key)\n`);
        continue;
      }
      const what = step.kind === undefined ? stepKey(step.command, step.sub) : step.title;
      const problem = `step ${index} (${what}) failed: ${error instanceof Error ? error.message : String(error)}`;
      run.problems.push(problem);
      run.write(`  ✗ ${problem}\n`);
    }
  }
}

/** An option as a user sees it typed: a channel as `#name`, a role as `@name`. */
function shownValue(stack: Stack, value: string | number | boolean): string {
  if (typeof value !== 'string' || !/^\d{17,20}$/.test(value)) return String(value);
  const channel = stack.bot.client.channels.cache.get(value);
  if (channel && 'name' in channel) return `#${String(channel.name)}`;
  const role = stack.bot.client.guilds.cache.get(stack.guildId)?.roles.cache.get(value);
  return role ? `@${role.name}` : value;
}

function describeStep(stack: Stack, step: CommandStep, options: OptionValues): string {
  const shown = Object.entries(options).map(([key, value]) => `${key}:${shownValue(stack, value)}`);
  return [`/${step.command}`, step.sub, ...shown].filter(Boolean).join(' ');
}

function actorOf(run: Run, step: CommandStep): Actor {
  return {
    ...(step.manager ? { memberPermissions: MANAGE_GUILD } : {}),
    ...step.as?.(run.stack),
  };
}

async function playCommand(run: Run, step: CommandStep, index: number): Promise<void> {
  const { stack, write } = run;
  if (step.before) {
    write(`\n~ In the game: ${step.before.title}\n`);
    await step.before.run(stack);
  }
  const options = (await step.options?.(stack)) ?? {};
  const who = step.locale
    ? `   (as a ${step.locale} user)`
    : step.manager
      ? '   (a member with Manage Server)'
      : '';
  write(`\n> ${describeStep(stack, step, options)}${who}\n`);
  write(`  — ${step.note}\n`);
  const actor = actorOf(run, step);
  let pending = stack.invoke(step.command, step.sub, options, {
    ...(step.locale ? { locale: step.locale } : {}),
    ...actor,
  });
  run.played.add(stepKey(step.command, step.sub));
  if (step.modal) pending = await submitModal(run, pending, step.modal(stack), actor);
  const label = `/${stepKey(step.command, step.sub)}`;
  const message = await show(run, pending, index, label, step.expect ?? 'ok');
  if (step.expect === 'did-you-mean') {
    const choice = enabledButtons(message)[0];
    if (!choice) return;
    write(`\n  * clicks "${choice.label}" (did you mean)\n`);
    await show(
      run,
      stack.discord.clickButton(message, choice.customId),
      index,
      `${label}: did you mean`,
      'ok',
    );
    return;
  }
  await follow(run, step, message, index, label);
}

/** The step's click or menu pick on its reply, when it asks for one. */
async function follow(run: Run, step: CommandStep, message: MessageRecord, index: number, label: string) {
  const click = step.then?.click;
  const wanted = (typeof click === 'function' ? click(run.stack) : click) ?? step.then?.pick;
  if (wanted === undefined) return;
  const target = findComponent(message, wanted);
  // What a reply offers is the command's to change: a click that no longer fits is skipped, not a failure.
  if (!target) {
    run.write(`  (this reply offers no "${wanted}" to click: skipped)\n`);
    return;
  }
  run.write(`\n  * ${target.kind === 'menu' ? 'picks' : 'clicks'} "${wanted}"\n`);
  const pending =
    target.kind === 'menu'
      ? run.stack.discord.selectMenu(message, target.customId, [target.value ?? wanted])
      : run.stack.discord.clickButton(message, target.customId);
  await show(run, pending, index, `${label}: ${wanted}`, 'ok');
}

function findComponent(
  message: MessageRecord,
  label: string,
): { customId: string; kind: 'button' | 'menu'; value?: string } | undefined {
  const button = enabledButtons(message).find((b) => b.label.includes(label));
  if (button) return { customId: button.customId, kind: 'button' };
  for (const row of message.components) {
    for (const part of ('components' in row ? row.components : []) as unknown as Array<
      Record<string, unknown>
    >) {
      if (part.type !== 3) continue;
      const option = (part.options as Array<{ value: string }>).find((o) => o.value === label);
      if (option) return { customId: String(part.custom_id), kind: 'menu', value: option.value };
    }
  }
  return undefined;
}

function wanted(expected: Expected): Outcome {
  return expected === 'did-you-mean' ? 'not-found' : expected;
}

async function show(
  run: Run,
  pending: PendingInteraction,
  index: number,
  label: string,
  expected: Expected,
): Promise<MessageRecord> {
  const first = await pending.response(15_000);
  const message = await pending.final(30_000);
  const deferred =
    first.type === 5 || first.type === 6 ? ` (deferred in ${Math.round(first.afterMs)} ms)` : '';
  run.write(`${printMessage(message)}\n  ↳ answered${deferred}\n`);
  await saveAttachments(message, run.outDir, index, run.write);
  const outcome = run.judge.outcome(message);
  const text = ReplyJudge.summary(message);
  run.replies.push({ step: label, outcome, text });
  const buttons = enabledButtons(message).length;
  // Without a key, a command only the developer API can answer says so: that is its expected reply.
  if (run.keyless && outcome === 'needs-key') {
    run.needsKey.add(label.slice(1).split(/[ :]/)[0] ?? label);
    run.write('  (needs a developer key: the expected reply of a keyless run)\n');
    return message;
  }
  if (outcome !== wanted(expected) || (expected === 'did-you-mean' && buttons === 0)) {
    const problem = `${label}: expected ${expected}, the reply reads as ${outcome} (${text})`;
    run.problems.push(problem);
    run.write(`  ✗ ${problem}\n`);
  }
  return message;
}

/** A command that answers with a form: fill its fields (a secret is shown cut here) and submit. */
async function submitModal(
  run: Run,
  pending: PendingInteraction,
  value: string | Readonly<Record<string, string>>,
  actor: Actor,
): Promise<PendingInteraction> {
  const first = await pending.response(15_000);
  if (first.type !== 9) return pending;
  const modal = first.data as { custom_id: string; title?: string; components: unknown[] };
  const field = /"custom_id":"([^"]+)"/.exec(JSON.stringify(modal.components))?.[1] ?? 'secret';
  const fields = typeof value === 'string' ? { [field]: value } : value;
  const shown = Object.entries(fields)
    .map(([name, typed]) => `${name}: ${typed.length > 12 ? `${typed.slice(0, 7)}…` : typed}`)
    .join(', ');
  run.write(`  ⧉ a form opens: "${modal.title ?? ''}"; the user fills it in (${shown}) and submits\n`);
  return run.stack.discord.submitModal(modal.custom_id, fields, {
    from: pending,
    ...(actor.memberPermissions === undefined ? {} : { memberPermissions: actor.memberPermissions }),
  });
}

import { readFile } from 'node:fs/promises';
import { InboxRepository } from '../../src/announcements/repositories.ts';
import { openDatabase } from '../../src/db/index.ts';
import { Translations } from '../../src/i18n/index.ts';
import { standardCommands } from './load.ts';
import {
  countAnnouncements,
  optionBuilder,
  probeCommand,
  type CommandOutcome,
  type CommandSpec,
  type ErrorTitles,
  type PublishedMap,
} from './measure.ts';
import { TIMELINE, type Row, type Scenario, type ScenarioContext, type Shared, type Undo } from './model.ts';
import { sleep } from './net.ts';
import { startChaosStack, type ChaosStack } from './stack.ts';
import { webhookSender } from './webhook-sender.ts';

/**
 * One scenario on a fresh stack: the subscriptions, then the timeline (commands, featured maps, the
 * fault), then the figures. Whatever fails becomes the row's error; the stack is stopped either way.
 */
const ADMIN = '300000000000009999';

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function errorTitles(): ErrorTitles {
  const t = new Translations().for('en-US');
  return {
    wentWrong: t.t('common:errors.unexpectedTitle'),
    explained: new Set(['title', 'busyTitle', 'upstreamTitle'].map((key) => t.t(`common:errors.${key}`))),
  };
}

interface Run {
  readonly stack: ChaosStack;
  readonly scenario: Scenario;
  readonly row: Row;
  readonly fault: { undo: Undo };
  readonly tokens: string[];
  readonly build: ReturnType<typeof optionBuilder>;
  readonly titles: ErrorTitles;
}

async function command(run: Run, spec: CommandSpec, finalTimeoutMs: number): Promise<CommandOutcome> {
  const outcome = await probeCommand(run.stack.discord, run.build, spec, run.titles, finalTimeoutMs);
  run.tokens.push(outcome.token);
  return outcome;
}

async function subscribe(run: Run): Promise<void> {
  const { stack, scenario } = run;
  const setup = async (values: CommandSpec['values'], sub: string) => {
    const spec = { command: 'subscribe', sub, values, userId: ADMIN, manager: true };
    if ((await command(run, spec, 10_000)).final !== 'result')
      throw new Error(`setup: /subscribe ${sub} failed`);
  };
  for (const channel of stack.channels) await setup({ channel }, 'maps');
  const turfPolls = () =>
    stack.sandbox.requests.entries().filter((e) => e.path === '/territorial-wars/status').length;
  if (scenario.turf === true)
    await setup({ channel: stack.turfChannel, clan: stack.sandbox.world.samples.clan }, 'turf');
  const before = turfPolls();
  // Announcements are "from now on", to the second: the first event comes in a later second.
  await sleep(1_100);
  // The turf feed's first poll only stores the state it compares the next ones with.
  for (let waited = 0; scenario.turf === true && turfPolls() <= before && waited < 5_000; waited += 100) {
    await sleep(100);
  }
}

async function timeline(run: Run): Promise<void> {
  const { stack, scenario, row, fault } = run;
  const { discord, sandbox } = stack;
  const ctx: ScenarioContext = {
    ...stack,
    webhookPort: stack.webhook.port,
    note: (text) => row.notes.push(text),
  };
  const specs = scenario.commands?.(standardCommands(sandbox), sandbox) ?? standardCommands(sandbox);
  const published: PublishedMap[] = [];
  const outcomes: Promise<CommandOutcome>[] = [];
  stack.bot.mark();
  const mark = performance.now();
  const deadline = mark + TIMELINE.windowMs + TIMELINE.settleMs;
  const sender = webhookSender(stack.webhook, () => deadline);
  const at = async (ms: number, work: () => unknown) => {
    await sleep(Math.max(0, mark + ms - performance.now()));
    await work();
  };
  const steps: Promise<unknown>[] = specs.map((spec, i) =>
    at(TIMELINE.firstCommandMs + i * TIMELINE.commandEveryMs, () => {
      outcomes.push(command(run, spec, TIMELINE.finalTimeoutMs));
    }),
  );
  stack.maps.forEach((map, i) => {
    steps.push(
      at(TIMELINE.publishAtMs[i] ?? 0, () => {
        const event = sandbox.events.publish('map.featured', map.id);
        published.push({ event, shownName: stack.shownNames.get(map.id) ?? map.name });
        sender.send(event);
      }),
    );
  });
  steps.push(
    (async () => {
      await at(TIMELINE.faultOnMs, async () => {
        fault.undo = await scenario.fault?.(ctx);
      });
      await at(TIMELINE.faultOffMs, () => {
        const off = fault.undo;
        fault.undo = undefined;
        return off?.();
      });
    })(),
  );
  const stepResults = await Promise.allSettled([...steps, sleep(TIMELINE.windowMs)]);
  for (const result of stepResults) {
    if (result.status === 'rejected') row.notes.push(`fault step failed: ${message(result.reason)}`);
  }

  const progress = { settled: false };
  void Promise.allSettled(outcomes).then(() => (progress.settled = true));
  while (performance.now() < deadline) {
    if (progress.settled && countAnnouncements(discord, stack.channels, published).lost === 0) break;
    await sleep(250);
  }
  const done = (await Promise.allSettled(outcomes)).flatMap((r) =>
    r.status === 'fulfilled' ? [r.value] : [],
  );
  row.commands = {
    total: specs.length,
    inTime: done.filter((o) => o.inTime).length,
    replied: done.filter((o) => o.final !== 'none').length,
    errors: done.filter((o) => o.final === 'error').length,
    wentWrong: done.filter((o) => o.final === 'wentWrong').length,
  };
  row.announcements = countAnnouncements(discord, stack.channels, published);
  if (row.announcements.other > 0) row.notes.push(`${row.announcements.other} other posts`);
  if (scenario.turf === true) {
    const posts = discord.messages(stack.turfChannel).filter((m) => m.kind === 'channel').length;
    row.notes.push(`turf posts: ${posts}`);
  }
  await sender.drain();
  const webhook = sender.stats();
  if (webhook.failedAttempts > 0) {
    row.notes.push(
      `webhook: ${webhook.failedAttempts} failed attempts, ${webhook.unacknowledged} never acknowledged`,
    );
  }
}

/** Error lines in the bot's log, and interaction tokens that reached it. */
async function readLog(path: string, tokens: readonly string[], row: Row): Promise<void> {
  const text = await readFile(path, 'utf8').catch(() => '');
  const errors = text.split('\n').filter((line) => /"level":(50|60)\b/.test(line)).length;
  if (errors > 0) row.notes.push(`bot log: ${errors} error lines`);
  const leaked = tokens.filter((token) => text.includes(token)).length;
  if (leaked > 0) row.notes.push(`${leaked} interaction tokens in the bot log`);
}

/** Announcements the bot left in its inbox (poison, or an outage it did not recover from). */
async function pendingAnnouncements(databaseUrl: string): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), 3_000);
  });
  const read = (async () => {
    const db = await openDatabase(databaseUrl, { connectTimeoutMs: 2_000 });
    try {
      return await new InboxRepository(db).depth();
    } finally {
      await db.close();
    }
  })().catch(() => undefined);
  const count = await Promise.race([read, timeout]);
  clearTimeout(timer);
  return count;
}

export async function runScenario(scenario: Scenario, shared: Shared, index: number): Promise<Row> {
  const row: Row = { name: scenario.name, notes: [] };
  const started = performance.now();
  if (scenario.standalone) {
    await scenario.standalone(row, shared, index).catch((error: unknown) => (row.error = message(error)));
    row.seconds = (performance.now() - started) / 1000;
    return row;
  }
  const fault: { undo: Undo } = { undo: undefined };
  const tokens: string[] = [];
  let stack: ChaosStack | undefined;
  try {
    stack = await startChaosStack(scenario, shared, index);
    const run: Run = {
      stack,
      scenario,
      row,
      fault,
      tokens,
      build: optionBuilder(shared.commands),
      titles: errorTitles(),
    };
    await subscribe(run);
    await timeline(run);
  } catch (error) {
    row.error = message(error);
  } finally {
    const off = fault.undo;
    fault.undo = undefined;
    if (off)
      await Promise.resolve()
        .then(off)
        .catch((error: unknown) => row.notes.push(`undoing the fault: ${message(error)}`));
    if (stack) {
      const killed = await stack.stopBot();
      const figures = stack.bot.figures();
      row.delay = { maxMs: figures.maxDelayMs, exact: figures.exact };
      row.peakRssMb = figures.peakRssMb;
      if (killed) row.notes.push('bot unresponsive: killed');
      const pending = await pendingAnnouncements(stack.databaseUrl);
      if (pending !== 0) row.notes.push(`inbox: ${pending ?? 'unreadable'} still pending`);
      await stack.close();
      await readLog(stack.logPath, tokens, row);
    }
    row.seconds = (performance.now() - started) / 1000;
  }
  return row;
}

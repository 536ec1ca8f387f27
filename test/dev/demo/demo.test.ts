import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationCommandOptionType, type APIApplicationCommandOption } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../../src/discord/loader.ts';
import { Translations } from '../../../src/i18n/index.ts';
import { runDemo, type DemoReport } from '../../../src/dev/demo/run.ts';
import { PRICE_ALERT } from '../../../src/dev/demo/posted.ts';
import { ANNOUNCEMENT_KINDS } from '../../../src/kinds.ts';
import { createLogger } from '../../../src/log/index.ts';

/**
 * `npm run demo`, in this process: every command and subcommand the bot registers is played, and every
 * reply is what its step expects (no error reply; the "not found" steps are not found, one with "did you
 * mean" buttons, whose first button the demo clicks). Replies are judged by their titles only, so that
 * changes to what a command says do not break this test.
 */
let report: DemoReport;
let transcript = '';
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'killfeed-demo-'));
  const lines: string[] = [];
  report = await runDemo({
    outDir,
    write: (text) => lines.push(text),
    logger: createLogger({ level: 'silent' }),
    // The sandbox answers at once: the demo's slow market read is real time there, and no test waits on it.
    sandbox: { latency: { marketSkinColdMs: 0, marketSkinWarmMs: 0 } },
  });
  transcript = lines.join('');
}, 180_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

/** `command`, `command sub` or `command group sub`: every leaf a user can run, from the definitions. */
function leaves(name: string, options: readonly APIApplicationCommandOption[] = []): string[] {
  const nested = options.filter(
    (o) =>
      o.type === ApplicationCommandOptionType.Subcommand ||
      o.type === ApplicationCommandOptionType.SubcommandGroup,
  );
  if (nested.length === 0) return [name];
  return nested.flatMap((o) =>
    o.type === ApplicationCommandOptionType.SubcommandGroup
      ? leaves(`${name} ${o.name}`, o.options)
      : [`${name} ${o.name}`],
  );
}

describe('npm run demo', () => {
  it('plays every command and subcommand the bot registers', async () => {
    const commands = await loadCommands(new Translations());
    const registered = commands.flatMap((command) => leaves(command.json.name, command.json.options));
    expect(registered.length).toBeGreaterThan(commands.length);
    expect(report.loaded).toEqual(commands.map((command) => command.json.name));
    const played = new Set(report.played);
    expect(registered.filter((key) => !played.has(key))).toEqual([]);
  });

  it('gets no error reply, and every reply is what its step expects', () => {
    expect(report.problems).toEqual([]);
    expect(report.replies.filter((reply) => reply.outcome === 'error')).toEqual([]);
    expect(report.replies.length).toBeGreaterThanOrEqual(report.played.length);
  });

  it('shows "did you mean" buttons for a typo, and one click answers', () => {
    const clicked = report.replies.findIndex((reply) => reply.step.endsWith(': did you mean'));
    expect(clicked).toBeGreaterThan(0);
    expect(report.replies[clicked - 1]?.outcome).toBe('not-found');
    expect(report.replies[clicked]?.outcome).toBe('ok');
  });

  it('says under each command what it shows', () => {
    const commandLines = transcript.split('\n').filter((line) => line.startsWith('> /'));
    expect(commandLines.length).toBeGreaterThanOrEqual(report.played.length);
    for (const key of report.played) expect(transcript).toContain(`> /${key}`);
    const blocks = transcript.split('\n> /').slice(1);
    for (const block of blocks) expect(block.split('\n')[1]).toMatch(/^ {2}— \S/);
  });

  it('posts every announcement kind and a price alert, each under a line saying what it is', () => {
    // The kinds the bot runs with, and the price alerts (a DM or a channel post, not an announcement kind).
    const kinds = [...ANNOUNCEMENT_KINDS.map((kind) => kind.name), PRICE_ALERT];
    expect(kinds.length).toBeGreaterThan(ANNOUNCEMENT_KINDS.length);
    const posted = new Set(report.posted.map((post) => post.kind));
    expect(kinds.filter((kind) => !posted.has(kind))).toEqual([]);
    // Each is a message the bot posted on its own, told apart by the bot's records (not by its text).
    expect(new Set(report.posted.map((post) => post.messageId)).size).toBe(report.posted.length);
    for (const kind of ANNOUNCEMENT_KINDS)
      expect(transcript).toContain(` receives a “${kind.name}” announcement`);
    expect(transcript).toContain(` receives a ${PRICE_ALERT}`);
  });

  it("writes the charts into the run's own folder", async () => {
    const files = await readdir(outDir);
    expect(files.some((file) => file.endsWith('.png'))).toBe(true);
  });
});

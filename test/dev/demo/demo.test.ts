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

  it('posts the clan’s daily digest once, after the turf day ends', () => {
    expectOneDigest(transcript);
  });

  it("writes the charts into the run's own folder", async () => {
    const files = await readdir(outDir);
    expect(files.some((file) => file.endsWith('.png'))).toBe(true);
  });
});

/**
 * The clan channel's digest is posted once, in the step where the turf day ends. Played late in the UTC
 * day, the demo once let its first jump cross the day's end: it posted two digests and waited a minute of
 * real time for the turf reads' budget.
 */
function expectOneDigest(text: string): void {
  const footer = '· daily turf digest ·';
  expect(text.split(footer).length - 1).toBe(1);
  const dayEnds = text.indexOf('~ In the game: the UTC turf day ends');
  expect(dayEnds).toBeGreaterThan(0);
  expect(text.indexOf(footer)).toBeGreaterThan(dayEnds);
}

/**
 * `npm run demo -- --keyless`: the bot without a developer key. Every step whose command the game tier can
 * answer answers (through the fallback or because it reads the game tier anyway); only the steps of
 * `KEY_ONLY`, whose data the game tier does not carry, say politely that they need a key.
 */
const KEY_ONLY = new Set([
  'player matches',
  'player inventory',
  'player listings',
  'player posts',
  'map rank',
  'map featured',
  'mods list',
  'match',
  'leaderboard ranked',
  'subscribe maps',
  'link verify',
  'track add',
]);

/** 23:30 UTC today. */
function lateToday(): number {
  const at = new Date();
  at.setUTCHours(23, 30, 0, 0);
  return at.getTime();
}

describe('npm run demo -- --keyless', () => {
  let keyless: DemoReport;
  let keylessOut: string;
  let keylessTranscript = '';

  beforeAll(async () => {
    keylessOut = await mkdtemp(join(tmpdir(), 'killfeed-demo-keyless-'));
    const lines: string[] = [];
    keyless = await runDemo({
      outDir: keylessOut,
      write: (text) => lines.push(text),
      logger: createLogger({ level: 'silent' }),
      sandbox: { latency: { marketSkinColdMs: 0, marketSkinWarmMs: 0 } },
      keyless: true,
      // Half an hour before the UTC turf day ends, at whatever hour the test runs: the clan channel's steps
      // are played across the day's end (the other run plays them at the hour it is).
      startsAt: lateToday(),
    });
    keylessTranscript = lines.join('');
  }, 180_000);

  afterAll(async () => {
    await rm(keylessOut, { recursive: true, force: true });
  });

  const stepOf = (label: string) => label.slice(1).split(':')[0] ?? label;

  it('answers every step the game tier can answer, and no step fails', () => {
    expect(keyless.problems).toEqual([]);
    expect(keyless.replies.filter((reply) => reply.outcome === 'error')).toEqual([]);
    const refused = keyless.replies
      .filter((reply) => reply.outcome === 'needs-key')
      .map((r) => stepOf(r.step));
    expect(refused.filter((step) => !KEY_ONLY.has(step))).toEqual([]);
    const answered = new Set(
      keyless.replies.filter((r) => r.outcome !== 'needs-key').map((r) => stepOf(r.step)),
    );
    const expected = keyless.played.filter((step) => !KEY_ONLY.has(step) && step !== 'track remove');
    expect(expected.filter((step) => !answered.has(step))).toEqual([]);
    for (const step of [
      'player profile',
      'clan profile',
      'clan members',
      'map info',
      'map leaderboard',
      'mods info',
    ])
      expect(answered.has(step), step).toBe(true);
  });

  it('posts the clan’s daily digest once, after the turf day ends, though it began late in the day', () => {
    expectOneDigest(keylessTranscript);
  });

  it('names the game tier as the source of the replies it stood in for', () => {
    expect(keylessTranscript).toContain('Keyless run: no GAME_API_KEY');
    expect(keylessTranscript).toContain('Source: the game API without a key');
    expect(transcript).not.toContain('Source: the game API without a key');
  });
});

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ApplicationCommandOptionType,
  type APIApplicationCommand,
  type APIApplicationCommandInteractionDataOption,
} from 'discord.js';
import { freePort } from '../net.ts';
import { startSandbox } from '../sandbox/index.ts';
import { startDiscordStandin, type DiscordStandin } from '../standin/index.ts';

/**
 * `npm run smoke` (CI runs it after `npm run check`): the compiled bot in `dist/`, run with plain node as
 * the Docker image runs it, between the game API sandbox and the Discord stand-in. It proves that the
 * compiled entry loads every module, that the compiled `deploy` finds the compiled commands and the
 * locale files, and that the compiled bot answers a command in German and draws a chart with the shipped
 * font, then stops cleanly on SIGTERM. `npm run smoke` builds first; this file only runs what is built.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(ROOT, 'dist/src/main.js');
const DEPLOY = join(ROOT, 'dist/src/discord/deploy.js');
const STEP_TIMEOUT_MS = 60_000;

interface Run {
  readonly code: number | null;
  readonly output: string;
}

interface Running {
  readonly done: Promise<Run>;
  readonly exited: () => boolean;
  readonly kill: (signal: NodeJS.Signals) => void;
}

/**
 * Runs a compiled entry with exactly `env` (nothing inherited) from the package root; killed if it has
 * not exited within the step timeout.
 */
function startNode(file: string, env: Record<string, string>): Running {
  const child = spawn(process.execPath, [file], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let exited = false;
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const done = new Promise<Run>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not exit within ${STEP_TIMEOUT_MS} ms:\n${output}`));
    }, STEP_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      exited = true;
      resolve({ code, output });
    });
  });
  return { done, exited: () => exited, kill: (signal) => child.kill(signal) };
}

function check(condition: boolean, what: string, detail = ''): void {
  if (!condition) throw new Error(`${what}${detail === '' ? '' : `\n${detail}`}`);
  process.stdout.write(`  ok: ${what}\n`);
}

/** `/command subcommand option:value…` as Discord sends it, typed from the deployed definition. */
function commandOptions(
  definition: APIApplicationCommand | undefined,
  subcommand: string,
  values: Readonly<Record<string, string | number>>,
): APIApplicationCommandInteractionDataOption[] {
  const sub = definition?.options?.find((option) => option.name === subcommand);
  if (sub?.type !== ApplicationCommandOptionType.Subcommand) throw new Error(`no subcommand ${subcommand}`);
  const options = Object.entries(values).map(([name, value]) => {
    const type = sub.options?.find((option) => option.name === name)?.type;
    if (type === undefined) throw new Error(`no option ${name} on ${subcommand}`);
    return { type, name, value } as APIApplicationCommandInteractionDataOption;
  });
  return [
    { type: ApplicationCommandOptionType.Subcommand, name: subcommand, options },
  ] as APIApplicationCommandInteractionDataOption[];
}

async function waitUntilHealthy(port: number, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline && !exited()) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
      (reply) => reply.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(exited() ? 'the bot exited before it was ready' : 'the bot was not ready in time');
}

async function exercise(discord: DiscordStandin, samples: { player: string; skinIndex: number }) {
  const definitions = new Map(discord.commands.global().map((command) => [command.name, command]));
  const chart = await discord
    .invokeCommand({
      name: 'market',
      options: commandOptions(definitions.get('market'), 'skin', { skin: samples.skinIndex, days: 30 }),
    })
    .final(STEP_TIMEOUT_MS);
  const png = chart.attachments.find((file) => file.filename.endsWith('.png'));
  check(
    png !== undefined && png.bytes.subarray(1, 4).toString('latin1') === 'PNG',
    '/market skin answers with a PNG chart (resvg and the font from assets/fonts)',
  );

  const profile = await discord
    .invokeCommand({
      name: 'player',
      options: commandOptions(definitions.get('player'), 'profile', { name: samples.player }),
    })
    .final(STEP_TIMEOUT_MS);
  check(profile.embeds[0]?.title?.includes(samples.player) === true, '/player profile names the player');

  const german = JSON.parse(readFileSync(join(ROOT, 'locales/de/common.json'), 'utf8')) as {
    notFound: { title: string };
  };
  const notFound = await discord
    .invokeCommand({
      name: 'player',
      options: commandOptions(definitions.get('player'), 'profile', { name: 'nobody-by-this-name' }),
      locale: 'de',
    })
    .final(STEP_TIMEOUT_MS);
  check(
    notFound.embeds[0]?.title === german.notFound.title,
    'a German user gets the German not-found reply (locales/ found)',
    JSON.stringify(notFound.embeds[0]),
  );
}

async function main(): Promise<void> {
  if (!existsSync(MAIN)) throw new Error('dist/src/main.js is missing: run `npm run build` first');
  const empty = await startNode(MAIN, {}).done;
  check(
    empty.code === 1 && empty.output.includes('GAME_API_URL'),
    'node dist/src/main.js without configuration exits 1 naming the missing variables',
    empty.output,
  );

  const data = mkdtempSync(join(tmpdir(), 'killfeed-smoke-'));
  const sandbox = await startSandbox();
  const discord = await startDiscordStandin();
  try {
    const port = await freePort();
    const env = {
      DISCORD_TOKEN: discord.token,
      DISCORD_API_URL: discord.restUrl,
      GAME_API_URL: sandbox.urls.base,
      GAME_LEGACY_URL: sandbox.urls.legacy,
      GAME_MATCHMAKER_URL: sandbox.urls.matchmaker,
      GAME_API_KEY: sandbox.keys.default,
      STORE_URL: `sqlite://${join(data, 'bot.sqlite')}`,
      DATABASE_URL: `sqlite://${join(data, 'killfeed.sqlite')}`,
      HTTP_PORT: String(port),
      LOG_LEVEL: 'warn',
    };
    const deployed = await startNode(DEPLOY, env).done;
    const commandFiles = readdirSync(join(ROOT, 'dist/commands')).filter((file) => file.endsWith('.js'));
    check(
      deployed.code === 0 && discord.commands.global().length === commandFiles.length,
      `node dist/src/discord/deploy.js registers the ${commandFiles.length} compiled commands`,
      deployed.output,
    );

    const guild = discord.addGuild({ name: 'Smoke', preferredLocale: 'en-US' });
    discord.addChannel(guild.id, { name: 'general' });
    const bot = startNode(MAIN, env);
    const exercised = waitUntilHealthy(port, bot.exited).then(async () => {
      check(true, 'node dist/src/main.js starts and /healthz says ready');
      await exercise(discord, sandbox.world.samples);
    });
    // Stopped and awaited whatever happened, so that no bot outlives the smoke run.
    await exercised.then(
      () => bot.kill('SIGTERM'),
      () => bot.kill('SIGTERM'),
    );
    const stopped = await bot.done;
    await exercised;
    check(
      stopped.code === 0 && !stopped.output.includes(discord.token),
      'SIGTERM stops it cleanly (exit 0), and its output never shows the token',
      stopped.output,
    );
  } finally {
    await discord.close();
    await sandbox.close();
    rmSync(data, { recursive: true, force: true });
  }
}

main().then(
  () => process.stdout.write('smoke: the compiled bot works\n'),
  (error: unknown) => {
    process.stderr.write(`smoke failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);

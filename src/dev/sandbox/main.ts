import { parseArgs } from 'node:util';
import { startSandbox } from './server.ts';

const USAGE = 'usage: npm run sandbox -- [--port 7700] [--seed 1]';

function integerOption(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value)) {
    throw new Error(`--${name} must be a non-negative integer\n${USAGE}`);
  }
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { port: { type: 'string' }, seed: { type: 'string' } },
  });
  const port = integerOption(values.port, 'port', 0);
  if (port > 65_533) throw new Error(`--port leaves no room for the two ports after it\n${USAGE}`);
  const sandbox = await startSandbox({
    seed: integerOption(values.seed, 'seed', 1),
    port,
    latency: { marketSkinColdMs: 1_500, marketSkinWarmMs: 300, topPlayersMs: 2_000 },
  });
  const { urls, keys, world } = sandbox;
  const player = world.samples.player;
  const lines = [
    'Game API sandbox running (Ctrl+C stops it).',
    '',
    `  base (developer, game, token): ${urls.base}`,
    `  legacy (browsers, ranked):     ${urls.legacy}`,
    `  matchmaker (lobby list):       ${urls.matchmaker}`,
    '',
    'API keys (header X-Developer-API-Key):',
    `  default (events.maps):      ${keys.default}`,
    `  kpd (kpd, events.maps):     ${keys.kpd}`,
    `  no scopes:                  ${keys.noScopes}`,
    `  revoked:                    ${keys.revoked}`,
    '',
    `Access token of ${player} (valid 24 h):`,
    `  ${sandbox.issueToken({ playerName: player })}`,
    '',
    `Names to try: players ${world.samples.player}, ${world.samples.verifiedPlayer}, ${world.samples.hackerPlayer};`,
    `  clans ${world.samples.clan}, ${world.samples.markdownClan}; maps ${world.samples.featuredMap}, ${world.samples.timeBoardMap};`,
    `  match ${world.samples.matchId}; skin ${world.samples.skinIndex}.`,
    '',
    'Paste into .env:',
    `GAME_API_URL=${urls.base}`,
    `GAME_LEGACY_URL=${urls.legacy}`,
    `GAME_MATCHMAKER_URL=${urls.matchmaker}`,
    `GAME_API_KEY=${keys.kpd}`,
    'GAME_API_KEY_HEADER=X-Developer-API-Key',
    'GAME_HOSTNAME=sandbox.local',
    '',
  ];
  process.stdout.write(lines.join('\n'));

  const stop = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    void sandbox.close().then(() => process.stdout.write('Sandbox stopped.\n'));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});

import { existsSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { REST, Routes, type RESTGetCurrentApplicationResult } from 'discord.js';
import { ConfigError, loadConfig, loadDotEnv, requireDiscordToken } from '../config/index.ts';
import { Translations } from '../i18n/index.ts';
import { logFor } from '../log/index.ts';
import { loadCommands } from './loader.ts';
import { discordRestAgent } from './rest-agent.ts';

/**
 * `npm run deploy`: registers every command in one bulk overwrite, to DISCORD_DEV_GUILD_ID when set
 * (instant, for development), globally otherwise. The bot never registers commands on start-up.
 */
export async function deployCommands(options: {
  readonly token: string;
  readonly apiUrl: string;
  readonly guildId?: string | undefined;
}): Promise<{ readonly count: number; readonly scope: string }> {
  const commands = await loadCommands(new Translations());
  const rest = new REST({ api: options.apiUrl, agent: discordRestAgent() }).setToken(options.token);
  const application = (await rest.get(Routes.currentApplication())) as RESTGetCurrentApplicationResult;
  const body = commands.map((command) => command.json);
  const route = options.guildId
    ? Routes.applicationGuildCommands(application.id, options.guildId)
    : Routes.applicationCommands(application.id);
  await rest.put(route, { body });
  return { count: body.length, scope: options.guildId ? `guild ${options.guildId}` : 'global' };
}

async function main(): Promise<number> {
  loadDotEnv();
  const log = logFor('deploy');
  try {
    const config = loadConfig();
    const result = await deployCommands({
      token: requireDiscordToken(config),
      apiUrl: config.discord.apiUrl,
      guildId: config.discord.devGuildId,
    });
    log.info(result, 'commands registered');
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    log.error({ err: error }, 'deploy failed');
    return 1;
  }
}

// Run as `npm run deploy`; imported (by tests) it only exports deployCommands. Node names this module by
// its real path, the command line by the path given: through the `dist` link they differ.
const entry = process.argv[1];
if (entry !== undefined && existsSync(entry) && import.meta.url === pathToFileURL(realpathSync(entry)).href)
  process.exitCode = await main();

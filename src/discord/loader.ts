import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ApplicationIntegrationType, InteractionContextType } from 'discord.js';
import { z } from 'zod';
import { isCompiled } from '../core/package-root.ts';
import type { Translations } from '../i18n/index.ts';
import type { Command, LoadedCommand } from './command.ts';
import { completionProblems } from './completion.ts';
import { localizeCommand } from './localize.ts';

/**
 * Loads every module of `commands/`, refusing one whose export is not a command (a definition with a
 * name and an `execute` function) or whose options declare a completion nobody gives, and fills its
 * localizations from the locale files.
 *
 * The commands are compiled beside the rest: from src/discord/loader.ts (tsx, vitest) this is `commands/`
 * and its `.ts` files; from dist/src/discord/loader.js (`npm run build`) it is `dist/commands/` and its
 * `.js` files. Only modules of the loader's own kind are loaded, so a source tree never runs stale output.
 */
export const COMMANDS_DIR = fileURLToPath(new URL('../../commands/', import.meta.url));
const MODULE_EXTENSION = isCompiled(import.meta.url) ? '.js' : '.ts';

const CommandModule = z.object({
  command: z.object({
    data: z.looseObject({ name: z.string().regex(/^[-_a-z0-9]{1,32}$/), description: z.string().optional() }),
    namespace: z.string().optional(),
    execute: z.custom<Command['execute']>((value) => typeof value === 'function'),
    component: z.custom<Command['component']>((value) => typeof value === 'function').optional(),
    modal: z.custom<Command['modal']>((value) => typeof value === 'function').optional(),
  }),
});

export async function loadCommands(
  translations: Translations,
  options: { readonly dir?: string; readonly only?: readonly string[] } = {},
): Promise<LoadedCommand[]> {
  const dir = options.dir ?? COMMANDS_DIR;
  const files = readdirSync(dir)
    .filter((file) => file.endsWith(MODULE_EXTENSION) && !file.endsWith('.d.ts'))
    .filter((file) => !options.only || options.only.includes(file.slice(0, -MODULE_EXTENSION.length)))
    .sort();
  const commands: LoadedCommand[] = [];
  for (const file of files) {
    const loaded: unknown = await import(pathToFileURL(`${dir}/${file}`).href);
    const parsed = CommandModule.safeParse(loaded);
    if (!parsed.success) {
      throw new Error(`commands/${file} does not export a valid command: ${z.prettifyError(parsed.error)}`);
    }
    const command = (loaded as { command: Command }).command;
    const problems = completionProblems(command.data);
    if (problems.length > 0) throw new Error(`commands/${file}: ${problems.join('; ')}`);
    const namespace = command.namespace ?? command.data.name;
    // Installable to a guild and to a user, usable in DMs, unless the command says otherwise.
    const data = {
      integration_types: [ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall],
      contexts: [
        InteractionContextType.Guild,
        InteractionContextType.BotDM,
        InteractionContextType.PrivateChannel,
      ],
      ...command.data,
    };
    commands.push({ ...command, json: localizeCommand(data, namespace, translations) });
  }
  const names = commands.map((command) => command.data.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) throw new Error(`Two commands are named ${duplicate}`);
  return commands;
}

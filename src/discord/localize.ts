import type {
  APIApplicationCommandOption,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { DEFAULT_LOCALE, type Translations } from '../i18n/index.ts';
import type { CommandSpec, OptionSpec } from './command.ts';

/**
 * Fills a command definition's names, descriptions and their localizations from the locale files, so
 * that no localization map is written by hand. The code gives each command, option and choice its
 * canonical (en-US) name and its shape; `<ns>:definition...` keys give the words:
 *
 *   definition.name / definition.description
 *   definition.options.<option>.name / .description / .choices.<choice value> / .options.<sub-option>...
 */
export function localizeCommand(
  spec: CommandSpec,
  namespace: string,
  translations: Translations,
): RESTPostAPIChatInputApplicationCommandsJSONBody {
  const at = `${namespace}:definition`;
  const { options, ...rest } = spec;
  return {
    ...rest,
    ...words(at, translations),
    ...(options
      ? { options: options.map((option) => localizeOption(option, `${at}.options`, translations)) }
      : {}),
  };
}

function localizeOption(
  option: OptionSpec,
  parent: string,
  translations: Translations,
): APIApplicationCommandOption {
  const at = `${parent}.${option.name}`;
  const { options, choices, ...rest } = option;
  // How an option completes is the bot's business: Discord is told only that it does.
  const completes = 'autocomplete' in rest;
  return {
    ...rest,
    ...(completes ? { autocomplete: true } : {}),
    ...words(at, translations),
    ...(options ? { options: options.map((sub) => localizeOption(sub, `${at}.options`, translations)) } : {}),
    ...(choices
      ? {
          choices: choices.map((choice) => {
            const names = translations.everyLocale(`${at}.choices.${String(choice.value)}`);
            const name = names[DEFAULT_LOCALE];
            if (name === undefined)
              throw new Error(`Missing en-US text for ${at}.choices.${String(choice.value)}`);
            return { value: choice.value, name, name_localizations: withoutDefault(names) };
          }),
        }
      : {}),
  } as APIApplicationCommandOption;
}

function words(at: string, translations: Translations) {
  const names = translations.everyLocale(`${at}.name`);
  const descriptions = translations.everyLocale(`${at}.description`);
  const description = descriptions[DEFAULT_LOCALE];
  if (description === undefined) throw new Error(`Missing en-US text for ${at}.description`);
  return {
    description,
    name_localizations: withoutDefault(names),
    description_localizations: withoutDefault(descriptions),
  };
}

function withoutDefault<T extends Partial<Record<string, string>>>(map: T): T {
  const { [DEFAULT_LOCALE]: _default, ...rest } = map;
  return rest as T;
}

import { Translations } from '../../i18n/index.ts';
import type { MessageRecord } from '../standin/index.ts';

/**
 * How a reply reads: an answer, a "not found", a polite "this needs a developer key" (a bot run without
 * one), or an error (refused, failed, the game API down).
 */
export type Outcome = 'ok' | 'not-found' | 'needs-key' | 'error';

const ERROR_TITLES = [
  'common:errors.title',
  'common:errors.unexpectedTitle',
  'common:errors.busyTitle',
  'common:errors.upstreamTitle',
];
const NOT_FOUND_TITLES = ['common:notFound.title'];

function titlesOf(translations: Translations, keys: readonly string[]): Set<string> {
  return new Set(keys.flatMap((key) => Object.values(translations.everyLocale(key))));
}

/**
 * Tells an error reply from an answer by its title, the one every failure's reply carries (the router
 * draws each failure with `renderError`), in any of the bot's languages; the rest of a reply is not read,
 * so the replies themselves may change freely.
 */
export class ReplyJudge {
  readonly #errors: Set<string>;
  readonly #notFound: Set<string>;
  readonly #needsKey: Set<string>;

  constructor(translations: Translations = new Translations()) {
    this.#errors = titlesOf(translations, ERROR_TITLES);
    this.#notFound = titlesOf(translations, NOT_FOUND_TITLES);
    this.#needsKey = titlesOf(translations, ['common:errors.noApiKey']);
  }

  outcome(message: MessageRecord): Outcome {
    const titles = message.embeds.map((embed) => embed.title ?? '');
    if (titles.some((title) => this.#errors.has(title))) {
      const said = message.embeds.map((embed) => embed.description ?? '');
      return said.some((text) => this.#needsKey.has(text)) ? 'needs-key' : 'error';
    }
    if (titles.some((title) => this.#notFound.has(title))) return 'not-found';
    return 'ok';
  }

  /** The first embed's title and description, cut: what the transcript names a problem with. */
  static summary(message: MessageRecord): string {
    const embed = message.embeds[0];
    const text = [embed?.title, embed?.description, message.content].filter(Boolean).join(': ');
    return text.length > 200 ? `${text.slice(0, 199)}…` : text;
  }
}

/** The buttons of a message that are not switched off, in order: label and custom id. */
export function enabledButtons(message: MessageRecord): Array<{ label: string; customId: string }> {
  const buttons: Array<{ label: string; customId: string }> = [];
  for (const row of message.components) {
    const parts = ('components' in row ? row.components : []) as unknown as Array<Record<string, unknown>>;
    for (const part of parts) {
      if (part.type !== 2 || part.disabled === true || typeof part.custom_id !== 'string') continue;
      buttons.push({ label: typeof part.label === 'string' ? part.label : '', customId: part.custom_id });
    }
  }
  return buttons;
}

import { ButtonStyle, ComponentType, type APIButtonComponent } from 'discord.js';
import { UserError } from '../core/user-error.ts';
import type { Row } from './common.ts';
import { DiscordLimits, truncate } from './text.ts';

/**
 * "No player named `NoSuchPlayr`", with up to three "Did you mean" buttons that run the command again for
 * a close name. The command gives the buttons' ids (they are its own); the error reply draws them.
 */
export interface NameChoice {
  readonly name: string;
  /** The button's custom id; a choice whose id did not fit (undefined) gets no button. */
  readonly customId: string | undefined;
}

export const MAX_DID_YOU_MEAN = 3;

export class NameNotFoundError extends UserError {
  constructor(
    /** `common:notFound.player` or `common:notFound.clan`. */
    key: string,
    /** The name searched for, as given (it is data: shown only through {@link inlineCode}). */
    readonly searched: string,
    readonly choices: readonly NameChoice[] = [],
  ) {
    super(key, { name: inlineCode(searched) });
    this.name = 'NameNotFoundError';
  }
}

const LINE_BREAKS = /[\r\n\u2028\u2029\u0085]+/g;
const CONTROLS = /\p{Cc}/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A name as inline code that cannot break out of it: a backtick (which nothing escapes inside code) is
 * shown as the look-alike `ˋ`, line breaks and control characters as spaces, lone surrogates as U+FFFD;
 * cut to `max` characters. Inside code, markdown, links and mentions do not render.
 */
export function inlineCode(value: string, max = 64): string {
  const cleaned = value
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(LINE_BREAKS, ' ')
    .replace(CONTROLS, ' ')
    .replaceAll('`', 'ˋ')
    .trim();
  const shown = truncate(cleaned === '' ? '?' : cleaned, max);
  return `\`${shown}\``;
}

/** The row of "did you mean" buttons, or undefined when there is none to show. */
export function didYouMeanRow(choices: readonly NameChoice[]): Row | undefined {
  const buttons: APIButtonComponent[] = [];
  const seen = new Set<string>();
  for (const choice of choices) {
    if (buttons.length >= MAX_DID_YOU_MEAN) break;
    if (!choice.customId || seen.has(choice.customId)) continue;
    seen.add(choice.customId);
    const plain = choice.name.replace(LONE_SURROGATE, '\uFFFD').replace(LINE_BREAKS, ' ').trim();
    const label = truncate(plain, DiscordLimits.buttonLabel);
    if (label === '') continue;
    buttons.push({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: choice.customId,
      label,
    });
  }
  return buttons.length === 0 ? undefined : { type: ComponentType.ActionRow, components: buttons };
}

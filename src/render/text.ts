import type { APIEmbed } from 'discord.js';

/**
 * Discord's documented limits, in UTF-16 code units (`text.length`): the stricter count, which Discord's API
 * and discord.js's builders apply (an emoji or 𝔄 outside the Basic Multilingual Plane counts 2).
 */
export const DiscordLimits = {
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  embedTotal: 6000,
  embeds: 10,
  content: 2000,
  selectOptionLabel: 100,
  selectOptionDescription: 100,
  buttonLabel: 80,
  customId: 100,
  autocompleteChoiceName: 100,
  autocompleteChoices: 25,
  autocompleteChoiceValue: 100,
  actionRows: 5,
  actionRowComponents: 5,
  selectOptions: 25,
  selectOptionValue: 100,
  selectPlaceholder: 150,
  componentsV2Total: 40,
  textDisplayTotal: 4000,
  attachmentDescription: 1024,
} as const;

const ZERO_WIDTH_SPACE = '\u200B';

// Left alone so links stay clickable; stops at characters that would let a URL swallow markup or escapes.
const URL_PATTERN = /https?:\/\/[^\s<>\\|`"]+/g;
const INLINE_MARKUP = /[\\*_~|`[\]]/g;
// Block constructs only count at the start of a line: quotes, headings and `-#` subtext, lists.
const LINE_START_MARKUP = /^([ \t]*)([>#+-])/gm;
const LINE_START_NUMBERED = /^([ \t]*\d+)\./gm;
const BROADCAST_MENTION = /@(everyone|here)/gi;
const ENTITY_MENTION = /<([@#/])/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Makes text from the game or a user show literally in Discord markdown: every inline marker (bold, italic,
 * underline, strike, spoiler, code, masked-link brackets, the backslash itself) is escaped, block markers at
 * a line start (quote, heading, `-#`, lists) are escaped, and mentions are broken with a zero-width space so
 * they neither ping nor render. Bare URLs are left unescaped so they stay clickable; a masked link cannot form
 * because its brackets are escaped.
 */
export function escapeMarkdown(text: string): string {
  let result = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    result += escapeInline(text.slice(last, match.index)) + match[0];
    last = match.index + match[0].length;
  }
  result += escapeInline(text.slice(last));
  return result
    .replace(LINE_START_MARKUP, '$1\\$2')
    .replace(LINE_START_NUMBERED, '$1\\.')
    .replace(BROADCAST_MENTION, `@${ZERO_WIDTH_SPACE}$1`)
    .replace(ENTITY_MENTION, `<${ZERO_WIDTH_SPACE}$1`);
}

function escapeInline(text: string): string {
  return text.replace(INLINE_MARKUP, '\\$&');
}

/** Length as Discord counts it: UTF-16 code units. */
export function textLength(text: string): number {
  return text.length;
}

/** Unicode code points (`[...text].length`); not what Discord counts, see {@link textLength}. */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

/**
 * Cuts `text` to at most `max` UTF-16 units, ellipsis included, at a grapheme boundary (an emoji sequence or
 * a letter with its accents is kept or dropped whole, a surrogate pair is never split). A backslash left
 * dangling by the cut (half of an escape made by {@link escapeMarkdown}) is dropped, so escape first, then
 * truncate. Costs O(max), whatever the length of `text`.
 */
export function truncate(text: string, max: number, ellipsis = '…'): string {
  const limit = Math.max(0, Math.floor(max));
  if (text.length <= limit) return text;
  if (ellipsis.length >= limit) return takeGraphemes(ellipsis, limit);
  return dropDanglingBackslash(takeGraphemes(text, limit - ellipsis.length).trimEnd()) + ellipsis;
}

/** The longest run of whole graphemes at the start of `text` within `budget` UTF-16 units. */
function takeGraphemes(text: string, budget: number): string {
  // Only what the budget can reach is segmented, plus the code point after it: whether a grapheme goes on
  // depends on the next code point only, so the boundaries found in the window are those of the whole text.
  const window = text.length > budget + 2 ? text.slice(0, budget + 2) : text;
  let kept = 0;
  for (const { index, segment } of graphemes.segment(window)) {
    const end = index + segment.length;
    if (end > budget) break;
    kept = end;
  }
  return text.slice(0, kept);
}

function dropDanglingBackslash(text: string): string {
  let count = 0;
  while (count < text.length && text[text.length - 1 - count] === '\\') count += 1;
  return count % 2 === 1 ? text.slice(0, -1) : text;
}

// Escaping never shortens text, so the first `max` units of the result come from the first `max` units of
// the input; the few after them let a mention, a URL or an escape that straddles the cut be seen as a whole.
const SAFE_TEXT_LOOKAHEAD = 16;

/**
 * The one way to place a string from the game or a user into a message: lone surrogates replaced, markdown
 * escaped, mentions neutralised, cut to `max` UTF-16 units. Blank or missing text becomes `fallback`. Only
 * the start of a long text is looked at: the cost is O(max).
 */
export function safeText(text: string | undefined | null, max: number, fallback = '—'): string {
  if (text === undefined || text === null) return truncate(fallback, max);
  const reach = Math.max(0, Math.floor(max)) + SAFE_TEXT_LOOKAHEAD;
  const head = text.length > reach ? text.slice(0, reach) : text;
  if (head.trim() === '') return truncate(fallback, max);
  return truncate(escapeMarkdown(head.replace(LONE_SURROGATE, '\uFFFD')), max);
}

/** The UTF-16 units Discord counts toward an embed's 6000 total. */
export function embedLength(embed: APIEmbed): number {
  let total = 0;
  total += textLength(embed.title ?? '');
  total += textLength(embed.description ?? '');
  total += textLength(embed.footer?.text ?? '');
  total += textLength(embed.author?.name ?? '');
  for (const field of embed.fields ?? []) {
    total += textLength(field.name) + textLength(field.value);
  }
  return total;
}

export interface MessagePayloadLike {
  content?: string | null | undefined;
  embeds?: readonly (APIEmbed | { toJSON(): APIEmbed })[] | undefined;
  /** Raw API components, builders (anything with `toJSON()`), or discord.js component data (camelCase). */
  components?: readonly unknown[] | undefined;
  files?: readonly unknown[] | undefined;
}

/**
 * Every way `payload` would be refused by Discord for its size or shape, as readable messages naming the
 * offending path (`embeds[0].fields[3].value: 1100 > 1024`). Empty means the payload is within limits.
 */
export function checkMessageLimits(payload: MessagePayloadLike): string[] {
  const violations: string[] = [];
  const over = (path: string, text: string | undefined | null, limit: number): void => {
    if (text === undefined || text === null) return;
    const length = textLength(text);
    if (length > limit) violations.push(`${path}: ${length} > ${limit}`);
  };

  over('content', payload.content, DiscordLimits.content);

  const embeds = (payload.embeds ?? []).map((embed) => ('toJSON' in embed ? embed.toJSON() : embed));
  if (embeds.length > DiscordLimits.embeds) {
    violations.push(`embeds: ${embeds.length} > ${DiscordLimits.embeds}`);
  }
  let total = 0;
  embeds.forEach((embed, i) => {
    const path = `embeds[${i}]`;
    over(`${path}.title`, embed.title, DiscordLimits.embedTitle);
    over(`${path}.description`, embed.description, DiscordLimits.embedDescription);
    over(`${path}.footer.text`, embed.footer?.text, DiscordLimits.footer);
    over(`${path}.author.name`, embed.author?.name, DiscordLimits.author);
    const fields = embed.fields ?? [];
    if (fields.length > DiscordLimits.embedFields) {
      violations.push(`${path}.fields: ${fields.length} > ${DiscordLimits.embedFields}`);
    }
    fields.forEach((field, j) => {
      const fieldPath = `${path}.fields[${j}]`;
      if (field.name.trim() === '') violations.push(`${fieldPath}.name: empty`);
      if (field.value.trim() === '') violations.push(`${fieldPath}.value: empty`);
      over(`${fieldPath}.name`, field.name, DiscordLimits.fieldName);
      over(`${fieldPath}.value`, field.value, DiscordLimits.fieldValue);
    });
    total += embedLength(embed);
  });
  if (total > DiscordLimits.embedTotal) {
    violations.push(`embeds total: ${total} > ${DiscordLimits.embedTotal}`);
  }

  const components = (payload.components ?? []).map(toPlain);
  checkComponents(components, violations, over);

  const hasContent = payload.content !== undefined && payload.content !== null && payload.content !== '';
  if (!hasContent && embeds.length === 0 && components.length === 0 && (payload.files ?? []).length === 0) {
    violations.push('message: empty (no content, embeds, components or files)');
  }
  return violations;
}

type Over = (path: string, text: string | undefined | null, limit: number) => void;
type Plain = Record<string, unknown>;

const ACTION_ROW = 1;
const BUTTON = 2;
const SELECT_TYPES = new Set([3, 5, 6, 7, 8]);
const TEXT_DISPLAY = 10;

function toPlain(value: unknown): Plain {
  if (typeof value !== 'object' || value === null) return {};
  const toJSON: unknown = 'toJSON' in value ? value.toJSON : undefined;
  if (typeof toJSON === 'function') return toPlain((toJSON as () => unknown).call(value));
  return value as Plain;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function listOf(value: unknown): Plain[] {
  return Array.isArray(value) ? value.map(toPlain) : [];
}

function checkComponents(top: Plain[], violations: string[], over: Over): void {
  const allRows = top.every((component) => component['type'] === ACTION_ROW);
  if (allRows && top.length > DiscordLimits.actionRows) {
    violations.push(`components: ${top.length} rows > ${DiscordLimits.actionRows}`);
  }
  let count = 0;
  let textDisplay = 0;
  const visit = (component: Plain, path: string): void => {
    count += 1;
    const type = component['type'];
    const customId = stringOf(component['custom_id']) ?? stringOf(component['customId']);
    over(`${path}.custom_id`, customId, DiscordLimits.customId);
    if (type === ACTION_ROW) {
      const children = listOf(component['components']);
      if (children.length > DiscordLimits.actionRowComponents) {
        violations.push(`${path}.components: ${children.length} > ${DiscordLimits.actionRowComponents}`);
      }
      if (children.some((child) => SELECT_TYPES.has(child['type'] as number)) && children.length > 1) {
        violations.push(`${path}.components: a select menu must be alone in its row`);
      }
    } else if (type === BUTTON) {
      over(`${path}.label`, stringOf(component['label']), DiscordLimits.buttonLabel);
    } else if (SELECT_TYPES.has(type as number)) {
      over(`${path}.placeholder`, stringOf(component['placeholder']), DiscordLimits.selectPlaceholder);
      const options = listOf(component['options']);
      if (options.length > DiscordLimits.selectOptions) {
        violations.push(`${path}.options: ${options.length} > ${DiscordLimits.selectOptions}`);
      }
      options.forEach((option, k) => {
        over(`${path}.options[${k}].label`, stringOf(option['label']), DiscordLimits.selectOptionLabel);
        over(`${path}.options[${k}].value`, stringOf(option['value']), DiscordLimits.selectOptionValue);
        over(
          `${path}.options[${k}].description`,
          stringOf(option['description']),
          DiscordLimits.selectOptionDescription,
        );
      });
    } else if (type === TEXT_DISPLAY) {
      textDisplay += textLength(stringOf(component['content']) ?? '');
    }
    listOf(component['components']).forEach((child, k) => visit(child, `${path}.components[${k}]`));
    const accessory = component['accessory'];
    if (accessory !== undefined) visit(toPlain(accessory), `${path}.accessory`);
  };
  top.forEach((component, i) => visit(component, `components[${i}]`));
  if (!allRows && count > DiscordLimits.componentsV2Total) {
    violations.push(`components: ${count} in total > ${DiscordLimits.componentsV2Total}`);
  }
  if (textDisplay > DiscordLimits.textDisplayTotal) {
    violations.push(`components text: ${textDisplay} > ${DiscordLimits.textDisplayTotal}`);
  }
}

/** Violations of Discord's limits for an autocomplete response; empty means it is fine. */
export function checkAutocompleteChoices(
  choices: readonly { name: string; value: string | number }[],
): string[] {
  const violations: string[] = [];
  if (choices.length > DiscordLimits.autocompleteChoices) {
    violations.push(`choices: ${choices.length} > ${DiscordLimits.autocompleteChoices}`);
  }
  choices.forEach((choice, i) => {
    const nameLength = textLength(choice.name);
    if (nameLength === 0) violations.push(`choices[${i}].name: empty`);
    if (nameLength > DiscordLimits.autocompleteChoiceName) {
      violations.push(`choices[${i}].name: ${nameLength} > ${DiscordLimits.autocompleteChoiceName}`);
    }
    if (typeof choice.value === 'string') {
      const valueLength = textLength(choice.value);
      if (valueLength > DiscordLimits.autocompleteChoiceValue) {
        violations.push(`choices[${i}].value: ${valueLength} > ${DiscordLimits.autocompleteChoiceValue}`);
      }
    }
  });
  return violations;
}

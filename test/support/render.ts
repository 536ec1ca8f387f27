import type { APIEmbed } from 'discord.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { TierClient } from '../../src/api/client.ts';
import { decodeComponentId, type ComponentId } from '../../src/discord/component-id.ts';
import { DEFAULT_LOCALE, Translations } from '../../src/i18n/index.ts';
import type { ReplyPayload } from '../../src/render/payload.ts';
import { checkMessageLimits, codePointLength, DiscordLimits } from '../../src/render/text.ts';
import {
  startSandbox,
  type Sandbox,
  type SandboxKeys,
  type SandboxOptions,
} from '../../src/dev/sandbox/index.ts';

/** Shared pieces of the renderer tests: sandbox data, hostile inputs, and what every reply must respect. */

/** Markdown, mentions, a heading and a masked link: each must come out inert. */
export const HOSTILE = '**@everyone** <@123> # head [x](http://e.vil)';
/** HOSTILE and the rest of Discord's markup: code, a spoiler, @here, a channel and a role mention. */
export const NASTY = `${HOSTILE} \`code\` ||spoiler|| @here <#456> <@&789>`;
export const LONG = 'W'.repeat(3000);
export const LONG_HOSTILE = `${HOSTILE} `.repeat(40);

export const translations = new Translations();
export const translators = {
  en: translations.for('en-US'),
  de: translations.for('de'),
  es: translations.for('es-ES'),
  fr: translations.for('fr'),
  pt: translations.for('pt-BR'),
  ru: translations.for('ru'),
  pl: translations.for('pl'),
  tr: translations.for('tr'),
};

export interface SandboxApi {
  readonly sandbox: Sandbox;
  readonly client: TierClient;
}

/**
 * Starts a sandbox and a tier client on it before the file's tests and closes both after them. The
 * client sends the named developer key (`none`: no key).
 */
export function useSandboxApi(
  options: SandboxOptions = {},
  key: keyof SandboxKeys | 'none' = 'default',
): SandboxApi {
  let sandbox: Sandbox | undefined;
  let client: TierClient | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox(options);
    client = new TierClient({ urls: sandbox.urls, ...(key === 'none' ? {} : { apiKey: sandbox.keys[key] }) });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });
  return {
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox starts in beforeAll');
      return sandbox;
    },
    get client() {
      if (!client) throw new Error('the client starts in beforeAll');
      return client;
    },
  };
}

export function embedOf(payload: ReplyPayload): APIEmbed {
  const embed = payload.embeds?.[0];
  if (!embed) throw new Error('no embed');
  return embed;
}

/** The text of the embeds, where game and user strings go. */
export function embedText(payload: ReplyPayload): string {
  return (payload.embeds ?? [])
    .flatMap((e) => [
      e.title,
      e.description,
      e.author?.name,
      e.footer?.text,
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
    ])
    .join('\n');
}

/** Every piece of text a reader would see. */
export function visibleText(payload: ReplyPayload): string {
  const parts: string[] = [payload.content ?? '', embedText(payload)];
  for (const row of payload.components ?? []) {
    for (const component of row.components) {
      if ('label' in component && component.label) parts.push(component.label);
      if ('placeholder' in component && component.placeholder) parts.push(component.placeholder);
      if ('options' in component) {
        for (const option of component.options) parts.push(option.label, option.description ?? '');
      }
    }
  }
  return parts.join('\n');
}

const NAMESPACES = Object.keys(translations.resources[DEFAULT_LOCALE] ?? {}).join('|');
/** A key i18next could not resolve shows as `namespace:key`. */
const UNRESOLVED_TEXT = new RegExp(`\\b(${NAMESPACES}):[a-zA-Z]`);
const UNRESOLVED_JSON = new RegExp(`"(${NAMESPACES}):[a-zA-Z.-]+"`);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface SafeOptions {
  /** Mentions the renderer writes on purpose (an announcement's role ping): the only ones allowed. */
  readonly mentions?: readonly string[];
  /** Whether only the asker may see the reply. */
  readonly ephemeral?: boolean;
  /** false: the reply carries no components. */
  readonly components?: boolean;
}

/**
 * A reply within Discord's limits in which game and user text is inert: no live mention, no masked
 * link, no heading or subtext, no unresolved translation key, and only PNG attachments.
 */
export function expectSafe(payload: ReplyPayload, options: SafeOptions = {}): void {
  expect(checkMessageLimits(payload)).toEqual([]);
  if (options.ephemeral !== undefined) expect(payload.ephemeral ?? false).toBe(options.ephemeral);
  if (options.components === false) expect(payload.components ?? []).toEqual([]);

  let seen = visibleText(payload);
  let serialized = JSON.stringify({
    content: payload.content,
    embeds: payload.embeds,
    components: payload.components,
  });
  for (const mention of options.mentions ?? []) {
    seen = seen.replaceAll(mention, '');
    serialized = serialized.replaceAll(mention, '');
  }
  for (const text of [seen, serialized]) {
    expect(text).not.toMatch(/@(everyone|here)/);
    expect(text).not.toContain('<@');
    // NASTY's channel mention, which the `<@` check does not cover.
    expect(text).not.toContain('<#456>');
  }
  // A masked link needs an unescaped `[...](`, or at least an unescaped `](`.
  expect(seen).not.toMatch(/(?<!\\)\[[^\]\n]*(?<!\\)\]\(/);
  expect(seen).not.toMatch(/(^|[^\\])\]\(/);
  // Headings and subtext need `#` or `-#` and a space at a line start (`#23`, a rank, is plain text).
  expect(seen).not.toMatch(/^\s*(#+|-#)\s/m);
  expect(seen).not.toMatch(UNRESOLVED_TEXT);
  expect(serialized).not.toMatch(UNRESOLVED_JSON);

  for (const file of payload.files ?? []) {
    expect(file.data.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(codePointLength(file.description ?? '')).toBeLessThanOrEqual(DiscordLimits.attachmentDescription);
  }
}

/** The custom id of every component, '' for one without (a link button). */
export function customIds(payload: ReplyPayload): string[] {
  return (payload.components ?? []).flatMap((row) =>
    row.components.map((component) => ('custom_id' in component ? component.custom_id : '')),
  );
}

export interface Button {
  readonly customId: string | undefined;
  readonly id: ComponentId | undefined;
  readonly label: string | undefined;
  readonly disabled: boolean | undefined;
}

/** Every component of every row, its custom id read back. */
export function buttons(payload: ReplyPayload): Button[] {
  return (payload.components ?? []).flatMap((row) =>
    row.components.map((component) => {
      const customId = 'custom_id' in component ? component.custom_id : undefined;
      return {
        customId,
        id: customId === undefined ? undefined : decodeComponentId(customId),
        label: 'label' in component ? component.label : undefined,
        disabled: 'disabled' in component ? component.disabled : undefined,
      };
    }),
  );
}

export function fieldValue(embed: APIEmbed, name: string): string | undefined {
  return embed.fields?.find((f) => f.name === name)?.value;
}

/** The value of a field that must be there. */
export function requireField(embed: APIEmbed, name: string): string {
  const value = fieldValue(embed, name);
  if (value === undefined) throw new Error(`no field ${name}`);
  return value;
}

/** The first embed's fields, by name. */
export function fieldsOf(payload: ReplyPayload): Record<string, string> {
  return Object.fromEntries((payload.embeds?.[0]?.fields ?? []).map((f) => [f.name, f.value]));
}

export function descriptionLines(payload: ReplyPayload): string[] {
  return (embedOf(payload).description ?? '').split('\n');
}

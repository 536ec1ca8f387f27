import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed } from 'discord.js';

/**
 * What every renderer returns: a plain message, free of discord.js classes, so that renderers stay pure
 * and their output can be checked against Discord's limits in tests.
 */
export interface ReplyPayload {
  readonly content?: string;
  readonly embeds?: readonly APIEmbed[];
  readonly components?: ReadonlyArray<APIActionRowComponent<APIComponentInMessageActionRow>>;
  readonly files?: ReadonlyArray<{
    readonly name: string;
    readonly data: Buffer;
    readonly description?: string;
  }>;
  /** Only the invoking user sees it. */
  readonly ephemeral?: boolean;
}

/** Colours that mean something: the same meaning keeps the same colour in every reply. */
export const Colors = {
  brand: 0xf5a623,
  info: 0x5865f2,
  success: 0x3ba55d,
  warning: 0xfaa61a,
  danger: 0xed4245,
  neutral: 0x4f545c,
  win: 0x3ba55d,
  loss: 0xed4245,
  draw: 0x99aab5,
  gold: 0xf1c40f,
} as const;

/**
 * Component custom ids carry everything a click needs (command, action, arguments), so a button still
 * works after a restart, plus the time it expires: `player:matches:Name:0:2~lq3k9x`.
 * Arguments are percent-encoded, so a `:` or `~` in a player name cannot break the format; a lone surrogate
 * (which percent-encoding refuses) travels as U+FFFD.
 */
export const CUSTOM_ID_MAX = 100;
export const COMPONENT_LIFETIME_MS = 30 * 60_000;

export interface ComponentId {
  readonly command: string;
  readonly action: string;
  readonly args: readonly string[];
  /** Epoch ms after which the component no longer works. */
  readonly expiresAt: number;
}

/** The id, or undefined when the arguments do not fit in Discord's 100 characters. */
export function encodeComponentId(
  command: string,
  action: string,
  args: ReadonlyArray<string | number>,
  expiresAt: number,
): string | undefined {
  const parts = [command, action, ...args.map((arg) => encodeURIComponent(wellFormed(String(arg))))];
  const id = `${parts.join(':')}~${Math.ceil(expiresAt / 1000).toString(36)}`;
  return id.length <= CUSTOM_ID_MAX ? id : undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

export function decodeComponentId(id: string): ComponentId | undefined {
  const tilde = id.lastIndexOf('~');
  if (tilde < 0) return undefined;
  const expiresAt = parseInt(id.slice(tilde + 1), 36) * 1000;
  const [command, action, ...rest] = id.slice(0, tilde).split(':');
  if (!command || action === undefined || !Number.isFinite(expiresAt)) return undefined;
  try {
    return { command, action, args: rest.map((arg) => decodeURIComponent(arg)), expiresAt };
  } catch {
    return undefined;
  }
}

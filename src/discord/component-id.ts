import type { Pager } from '../render/common.ts';

/**
 * Component custom ids carry everything a click needs (command, action, arguments), so a button still
 * works after a restart, plus the time it expires: `player:matches:Name:0:2~lq3k9x`.
 * Arguments are percent-encoded, so a `:` or `~` in a player name cannot break the format; a lone surrogate
 * (which percent-encoding refuses) travels as U+FFFD.
 */
export const CUSTOM_ID_MAX = 100;
export const COMPONENT_LIFETIME_MS = 30 * 60_000;
/**
 * The action of every "did you mean" button (`player:find:profile:Name`): a click answers with a reply of
 * its own, which the clicker can share, instead of updating the private "not found" message it sits on.
 */
export const DID_YOU_MEAN_ACTION = 'find';

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

type Actions = Readonly<Record<string, readonly string[]>>;

type Encoders<A extends Actions> = {
  readonly [K in keyof A]: (
    args: { readonly [F in A[K][number]]: string | number },
    expiresAt: number,
  ) => string | undefined;
};

/** A decoded id of one of the actions: its arguments by name, as strings (parsing them is the handler's). */
export type DecodedComponent<A extends Actions> = {
  [K in keyof A & string]: {
    readonly action: K;
    readonly args: { readonly [F in A[K][number]]: string };
    readonly expiresAt: number;
  };
}[keyof A & string];

export interface ComponentIds<A extends Actions> {
  readonly command: string;
  readonly encode: Encoders<A>;
  /** The action and named arguments of an id this command wrote; undefined for anything else. */
  decode(id: ComponentId): DecodedComponent<A> | undefined;
  /** A pager expiring {@link COMPONENT_LIFETIME_MS} after `now`: `id(page, expiresAt)` for each page. */
  pager(now: number, id: (page: number, expiresAt: number) => string | undefined): Pager;
}

/**
 * A command's component ids: for each action, the names of the arguments it carries, in wire order
 * (`defineComponents('player', { matches: ['name', 'season', 'page'] })`). Encoding and decoding go
 * through one table, so a button and its handler cannot disagree on where an argument sits.
 */
export function defineComponents<const A extends Actions>(command: string, actions: A): ComponentIds<A> {
  const encode = Object.fromEntries(
    Object.entries(actions).map(([action, fields]) => [
      action,
      (args: Readonly<Record<string, string | number>>, expiresAt: number) =>
        encodeComponentId(
          command,
          action,
          fields.map((field) => args[field] ?? ''),
          expiresAt,
        ),
    ]),
  ) as unknown as Encoders<A>;
  return {
    command,
    encode,
    decode(id) {
      const fields = Object.hasOwn(actions, id.action) ? actions[id.action] : undefined;
      if (id.command !== command || !fields || fields.length !== id.args.length) return undefined;
      const args = Object.fromEntries(fields.map((field, index) => [field, id.args[index] ?? '']));
      return { action: id.action, args, expiresAt: id.expiresAt } as DecodedComponent<A>;
    },
    pager(now, id) {
      const expiresAt = now + COMPONENT_LIFETIME_MS;
      return {
        page: (page) => id(page, expiresAt),
        label: encodeComponentId(command, 'page-label', [], expiresAt),
      };
    },
  };
}

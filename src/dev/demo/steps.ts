import type { OptionValues, Stack } from './stack.ts';

/** Who runs a command: another user, a member with permissions or roles, in another channel. */
export interface Actor {
  readonly userId?: string;
  readonly memberPermissions?: bigint;
  readonly memberRoles?: readonly string[];
  readonly channelId?: string;
}

/**
 * What a step's first reply is meant to be: an answer (`ok`, the default), a "not found" (with or without
 * suggestions), or a "not found" with "did you mean" buttons, the first of which the demo then clicks.
 */
export type Expected = 'ok' | 'not-found' | 'did-you-mean';

/** One slash command of the demo, as a user types it. */
export interface CommandStep {
  readonly kind?: undefined;
  readonly command: string;
  readonly sub?: string;
  readonly options?: (stack: Stack) => OptionValues | Promise<OptionValues>;
  /** After the reply: click the button (its label, or one chosen from the sandbox) or pick the menu entry. */
  readonly then?: { readonly click?: string | ((stack: Stack) => string); readonly pick?: string };
  /** What the step shows, printed in the transcript under the command. */
  readonly note: string;
  readonly locale?: string;
  /** Run as a member with Manage Server (subscriptions and moderator commands need it). */
  readonly manager?: boolean;
  /** Run as someone else than the demo's user, or with other rights. */
  readonly as?: (stack: Stack) => Actor;
  /** The command opens a modal: what to type into its fields (a string: its first field). */
  readonly modal?: (stack: Stack) => string | Readonly<Record<string, string>>;
  /** Something that happens in the game first (a post on a profile), printed as a `~` line. */
  readonly before?: { readonly title: string; readonly run: (stack: Stack) => void | Promise<void> };
  readonly expect?: Expected;
}

/** A step that is not a command: something happening in the game, shown through the bot. */
export interface GameStep {
  readonly kind: 'game';
  readonly title: string;
  readonly run: (game: GameContext) => Promise<void>;
}

/** A message the bot posted on its own: an announcement of a kind, or a price alert (`posted.ts`). */
export interface Posted {
  /** The announcement kind (`ANNOUNCEMENT_KINDS`' name), or `PRICE_ALERT`. */
  readonly kind: string;
  readonly channelId: string;
  readonly messageId: string;
}

/** What a game step works with: the stack, where its images go, and the transcript. */
export interface GameContext {
  readonly stack: Stack;
  readonly outDir: string;
  /** The step's number (its images are named after it). */
  readonly index: number;
  readonly write: (text: string) => void;
  /** Told of each announcement and price alert the step saw posted (the demo's report lists them). */
  readonly posted?: (post: Posted) => void;
}

/** A heading of the transcript: what the next steps are about. */
export interface SectionStep {
  readonly kind: 'section';
  readonly title: string;
}

export type Step = CommandStep | GameStep | SectionStep;

/** `/command sub`, as the demo's coverage counts it. */
export function stepKey(command: string, sub?: string): string {
  return sub === undefined ? command : `${command} ${sub}`;
}

/** The first value autocomplete offers for `option`, as a user picks it from the list. */
export async function firstSuggestion(
  stack: Stack,
  command: string,
  sub: string | undefined,
  option: string,
  typed = '',
): Promise<string> {
  const reply = await stack.autocomplete(command, sub, option, typed).response(15_000);
  const choices = (reply.data as { choices?: Array<{ value: string | number }> } | undefined)?.choices ?? [];
  const first = choices[0];
  if (first === undefined)
    throw new Error(`autocomplete of /${stepKey(command, sub)} ${option} offers nothing`);
  return String(first.value);
}

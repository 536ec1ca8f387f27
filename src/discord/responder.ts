import {
  MessageFlags,
  type APIModalInteractionResponseCallbackData,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type InteractionEditReplyOptions,
  type InteractionReplyOptions,
  type ModalSubmitInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { ReplyPayload } from '../render/payload.ts';

export type AnswerableInteraction =
  ChatInputCommandInteraction | ButtonInteraction | StringSelectMenuInteraction | ModalSubmitInteraction;

/**
 * Answers one interaction exactly once, whatever path the handler takes: `defer()` when the answer
 * needs time, `send()` for the answer (reply, edit of the deferred reply, or update of the clicked
 * message, unless the click `replies`), `fail()` for an error, which is always ephemeral even after a
 * public defer.
 */
export class Responder {
  readonly #interaction: AnswerableInteraction;
  /** Component clicks update the message they sit on; commands and modals reply. */
  readonly #updates: boolean;
  #state: 'fresh' | 'deferred' | 'answered' = 'fresh';
  /** A defer in flight: concurrent loads of one handler share it instead of deferring twice. */
  #deferring: Promise<void> | undefined;
  /** The deferred reply only the user sees (an ephemeral defer). */
  #private = false;
  #modal = false;
  /**
   * The first response (a reply or an update) is on its way. A defer now would race it, and whichever
   * reached Discord second would fail as "already acknowledged": a slow upload must not be undone by the
   * router's watchdog.
   */
  #responding = false;
  /** The answer (or the failure) is on its way: no progress edit may follow it. */
  #final = false;
  /** The progress edit in flight, if any: the answer waits for it, so that it lands last. */
  #progressing: Promise<unknown> | undefined;

  /**
   * `replies`: a click that answers with a message of its own instead of updating the one it sits on (a
   * "did you mean" button opens what the command would have shown, public unless the answer is private).
   */
  constructor(interaction: AnswerableInteraction, options: { readonly replies?: boolean } = {}) {
    this.#interaction = interaction;
    this.#updates = interaction.isMessageComponent() && options.replies !== true;
  }

  get answered(): boolean {
    return this.#state === 'answered';
  }

  get deferred(): boolean {
    return this.#state === 'deferred';
  }

  /** A modal is being shown: the first response is on its way. */
  get showingModal(): boolean {
    return this.#modal;
  }

  /** The first response is being sent: deferring now is neither needed nor allowed. */
  get responding(): boolean {
    return this.#responding;
  }

  defer(options: { ephemeral?: boolean } = {}): Promise<void> {
    if (this.#state !== 'fresh' || this.#responding) return Promise.resolve();
    this.#deferring ??= (async () => {
      const interaction = this.#interaction;
      if (this.#updates && interaction.isMessageComponent()) await interaction.deferUpdate();
      else await interaction.deferReply(options.ephemeral ? { flags: MessageFlags.Ephemeral } : {});
      this.#private = options.ephemeral === true && !this.#updates;
      this.#state = 'deferred';
    })();
    return this.#deferring;
  }

  /** Shows a modal: only possible as the first response, so never after a defer. */
  async showModal(modal: APIModalInteractionResponseCallbackData): Promise<void> {
    const interaction = this.#interaction;
    if (this.#state !== 'fresh' || this.#deferring || interaction.isModalSubmit()) {
      throw new Error('a modal must be the first response to a command or a component');
    }
    this.#modal = true;
    await interaction.showModal(modal);
    this.#state = 'answered';
  }

  /**
   * Shows how the answer is coming (its place in the queue for the game API) in the deferred reply, which
   * the answer then replaces. Only a deferred reply of its own is edited (a clicked message keeps what it
   * shows); nothing once the answer is on its way.
   */
  async progress(payload: ReplyPayload): Promise<void> {
    if (this.#state !== 'deferred' || this.#updates || this.#final) return;
    const interaction = this.#interaction;
    const edit = (this.#progressing ?? Promise.resolve()).then(async () => {
      if (this.#state === 'deferred' && !this.#final) await interaction.editReply(toEdit(payload));
    });
    this.#progressing = edit.catch(() => undefined);
    await edit;
  }

  async send(payload: ReplyPayload): Promise<void> {
    this.#final = true;
    await this.#deferring;
    if (this.#progressing) await this.#progressing;
    const interaction = this.#interaction;
    if (this.#state === 'fresh') {
      await this.#firstResponse(() =>
        this.#updates && interaction.isMessageComponent() && !payload.ephemeral
          ? interaction.update(toEdit(payload))
          : interaction.reply(toReply(payload)),
      );
    } else if (this.#state === 'deferred' && payload.ephemeral && !this.#private && !this.#updates) {
      // A private answer after a public defer is never shown to everyone: the placeholder goes.
      await interaction.deleteReply().catch(() => undefined);
      await interaction.followUp(toReply(payload));
    } else if (this.#state === 'deferred') {
      await interaction.editReply(toEdit(payload));
    } else {
      await interaction.followUp(toReply(payload));
    }
    this.#state = 'answered';
  }

  /** An error reply that only the user sees, in whatever state the interaction is. */
  async fail(payload: ReplyPayload): Promise<void> {
    this.#final = true;
    await this.#deferring?.catch(() => undefined);
    if (this.#progressing) await this.#progressing;
    const interaction = this.#interaction;
    const ephemeral = { ...payload, ephemeral: true };
    if (this.#state === 'fresh') {
      await this.#firstResponse(() => interaction.reply(toReply(ephemeral)));
    } else if (this.#state === 'deferred' && !this.#updates && (this.#private || interaction.ephemeral)) {
      await interaction.editReply(toEdit(payload));
    } else if (this.#state === 'deferred' && !this.#updates) {
      // A public "thinking…" would show the error to everyone: remove it and answer privately.
      await interaction.deleteReply().catch(() => undefined);
      await interaction.followUp(toReply(ephemeral));
    } else {
      await interaction.followUp(toReply(ephemeral));
    }
    this.#state = 'answered';
  }

  /** Sends the first response, with {@link responding} set while it is on its way. */
  async #firstResponse(respond: () => Promise<unknown>): Promise<void> {
    this.#responding = true;
    try {
      await respond();
    } finally {
      this.#responding = false;
    }
  }
}

const NO_MENTIONS = { parse: [] } as const;

function files(payload: ReplyPayload) {
  return (payload.files ?? []).map((file) => ({
    attachment: file.data,
    name: file.name,
    ...(file.description === undefined ? {} : { description: file.description }),
  }));
}

export function toReply(payload: ReplyPayload): InteractionReplyOptions {
  return {
    ...(payload.content === undefined ? {} : { content: payload.content }),
    embeds: [...(payload.embeds ?? [])],
    components: [...(payload.components ?? [])],
    files: files(payload),
    allowedMentions: NO_MENTIONS,
    ...(payload.ephemeral ? { flags: MessageFlags.Ephemeral } : {}),
  };
}

/** Edits replace everything: content, embeds, components and attachments. */
export function toEdit(payload: ReplyPayload): InteractionEditReplyOptions {
  return {
    content: payload.content ?? '',
    embeds: [...(payload.embeds ?? [])],
    components: [...(payload.components ?? [])],
    files: files(payload),
    attachments: [],
    allowedMentions: NO_MENTIONS,
  };
}

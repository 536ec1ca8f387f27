import {
  ComponentType,
  TextInputStyle,
  type APIModalInteractionResponseCallbackData,
  type ModalSubmitInteraction,
} from 'discord.js';
import { truncate } from '../render/text.ts';

/**
 * Asking for a secret (a developer key, an access token) through a modal: the value never appears in
 * a slash command's options, which Discord shows in the channel and keeps in the command's history.
 */
export const SECRET_INPUT_ID = 'secret';

export interface SecretPrompt {
  /** The modal's custom id (`encodeComponentId`), which routes the submission back to the command. */
  readonly customId: string;
  /** At most 45 characters. */
  readonly title: string;
  /** At most 45 characters. */
  readonly label: string;
  /** At most 100 characters. */
  readonly description?: string;
  readonly placeholder?: string;
  readonly minLength: number;
  readonly maxLength: number;
}

export function secretModal(prompt: SecretPrompt): APIModalInteractionResponseCallbackData {
  return {
    custom_id: prompt.customId,
    title: truncate(prompt.title, 45),
    components: [
      {
        type: ComponentType.Label,
        label: truncate(prompt.label, 45),
        ...(prompt.description === undefined ? {} : { description: truncate(prompt.description, 100) }),
        component: {
          type: ComponentType.TextInput,
          custom_id: SECRET_INPUT_ID,
          style: prompt.maxLength > 200 ? TextInputStyle.Paragraph : TextInputStyle.Short,
          min_length: prompt.minLength,
          max_length: prompt.maxLength,
          required: true,
          ...(prompt.placeholder === undefined ? {} : { placeholder: truncate(prompt.placeholder, 100) }),
        },
      },
    ],
  };
}

/** What `askForSecret` needs of a command's context: the interaction's responder. */
export interface ModalAsker {
  readonly responder: { showModal(modal: APIModalInteractionResponseCallbackData): Promise<void> };
}

/** Shows the modal as the interaction's first response (so nothing may be deferred before it). */
export async function askForSecret(ctx: ModalAsker, prompt: SecretPrompt): Promise<void> {
  await ctx.responder.showModal(secretModal(prompt));
}

/** The submitted secret, trimmed; an empty string when the field is missing. */
export function submittedSecret(interaction: ModalSubmitInteraction): string {
  try {
    return interaction.fields.getTextInputValue(SECRET_INPUT_ID).trim();
  } catch {
    return '';
  }
}

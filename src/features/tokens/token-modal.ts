import {
  ComponentType,
  type APIModalInteractionResponseCallbackData,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { Translator } from '../../i18n/index.ts';
import { truncate } from '../../render/text.ts';
import { secretModal } from '../../secrets/modal.ts';

/**
 * The modal of `/me`: the access token (a text input), and below it the opt-in to keep it in memory for
 * up to 15 minutes: a select whose default is "only for this reply" (modals have no checkbox that every
 * client shows; a select is the one choice control Discord renders in them everywhere). Remembering
 * happens only when the player picks "yes".
 */
export const REMEMBER_INPUT_ID = 'remember';
export const REMEMBER_YES = 'yes';
export const REMEMBER_NO = 'no';

/** The modal: the token, and whether to remember it (no, unless the player chooses it). */
export function tokenModal(
  t: Translator,
  customId: string,
  title: string,
): APIModalInteractionResponseCallbackData {
  const base = secretModal({
    customId,
    title,
    label: t.t('me:modal.label'),
    description: t.t('me:modal.description'),
    minLength: 20,
    maxLength: 4000,
  });
  return {
    ...base,
    components: [
      ...base.components,
      {
        type: ComponentType.Label,
        label: truncate(t.t('me:modal.remember.label'), 45),
        description: truncate(t.t('me:modal.remember.description'), 100),
        component: {
          type: ComponentType.StringSelect,
          custom_id: REMEMBER_INPUT_ID,
          options: [
            { value: REMEMBER_NO, label: truncate(t.t('me:modal.remember.no'), 100), default: true },
            { value: REMEMBER_YES, label: truncate(t.t('me:modal.remember.yes'), 100) },
          ],
        },
      },
    ],
  };
}

/**
 * Whether the player chose to have the token remembered. Discord sends the select as `values`; a text
 * value (how the Discord stand-in submits every modal field) is read the same way.
 */
export function wantsRemembering(interaction: ModalSubmitInteraction): boolean {
  let field;
  try {
    field = interaction.fields.getField(REMEMBER_INPUT_ID);
  } catch {
    return false;
  }
  if ('values' in field && Array.isArray(field.values)) return field.values.includes(REMEMBER_YES);
  if ('value' in field && typeof field.value === 'string') return field.value.trim() === REMEMBER_YES;
  return false;
}

import { ComponentKind } from '../constants.ts';
import { modalInputs } from '../validate.ts';
import type { InteractionState } from './interaction.ts';

/**
 * The components of a modal submission. Given the interaction that showed the modal, the fields must be
 * its text inputs and keep its layout (label or action row).
 */
export function modalComponents(
  from: InteractionState | undefined,
  customId: string,
  fields: Record<string, string>,
): unknown[] {
  let layout = new Map<string, 'label' | 'row'>(Object.keys(fields).map((k) => [k, 'row']));
  if (from) {
    if (from.modal?.custom_id !== customId) {
      throw new Error(`interaction ${from.id} did not show a modal with custom_id ${customId}`);
    }
    layout = modalInputs(from.modal);
    const missing = Object.keys(fields).filter((k) => !layout.has(k));
    if (missing.length > 0) throw new Error(`the modal has no text input ${missing.join(', ')}`);
  }
  return Object.entries(fields).map(([id, value]) => {
    const input = { type: ComponentKind.TextInput, custom_id: id, value, id: 0 };
    return layout.get(id) === 'label'
      ? { type: ComponentKind.Label, id: 0, component: input }
      : { type: ComponentKind.ActionRow, id: 0, components: [input] };
  });
}

import { ComponentKind } from '../constants.ts';
import { isRecord, type DiscordState } from '../state.ts';
import type { MessageRecord } from '../types.ts';
import { resolveSelectValues } from './resolved.ts';

const selectTypes = new Set<number>([
  ComponentKind.StringSelect,
  ComponentKind.UserSelect,
  ComponentKind.RoleSelect,
  ComponentKind.MentionableSelect,
  ComponentKind.ChannelSelect,
]);

/** The message and its component a user clicks: both must still be there and usable. */
export function findOnMessage(
  world: DiscordState,
  message: MessageRecord,
  customId: string,
): { record: MessageRecord; component: Record<string, unknown> } {
  const record = world.messages.get(message.id);
  if (!record) throw new Error(`message ${message.id} is not in the channel (deleted?)`);
  const component = findComponent(record.components, customId);
  if (!component) throw new Error(`message ${message.id} has no component with custom_id ${customId}`);
  if (component.disabled === true) throw new Error(`component ${customId} is disabled: nobody can use it`);
  return { record, component };
}

export function buttonData(component: Record<string, unknown>, customId: string): Record<string, unknown> {
  if (component.type !== ComponentKind.Button) throw new Error(`component ${customId} is not a button`);
  return { custom_id: customId, component_type: ComponentKind.Button };
}

/** The `data` of a select interaction, once the values are checked against what the menu offers. */
export function selectData(
  world: DiscordState,
  record: MessageRecord,
  component: Record<string, unknown>,
  customId: string,
  values: string[],
): Record<string, unknown> {
  const type = Number(component.type);
  if (!selectTypes.has(type)) throw new Error(`component ${customId} is not a select menu`);
  const min = typeof component.min_values === 'number' ? component.min_values : 1;
  const max = typeof component.max_values === 'number' ? component.max_values : 1;
  if (values.length < min || values.length > max) {
    throw new Error(`select ${customId} takes ${min} to ${max} values, got ${values.length}`);
  }
  if (type === ComponentKind.StringSelect) {
    const offered = new Set(
      (Array.isArray(component.options) ? (component.options as unknown[]) : []).map((o) =>
        isRecord(o) ? String(o.value) : '',
      ),
    );
    const unknown = values.filter((v) => !offered.has(v));
    if (unknown.length > 0) throw new Error(`select ${customId} offers no option ${unknown.join(', ')}`);
  }
  const data: Record<string, unknown> = { custom_id: customId, component_type: type, values };
  const resolved =
    type === ComponentKind.StringSelect ? null : resolveSelectValues(world, record.guildId, values, type);
  if (resolved) data.resolved = resolved;
  return data;
}

function findComponent(node: unknown, customId: string): Record<string, unknown> | null {
  if (Array.isArray(node)) {
    for (const child of node as unknown[]) {
      const found = findComponent(child, customId);
      if (found) return found;
    }
    return null;
  }
  if (!isRecord(node)) return null;
  if (node.custom_id === customId) return node;
  return findComponent(node.components, customId) ?? findComponent(node.accessory, customId);
}

import { ComponentType, type ModalSubmitInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { tokenModal, wantsRemembering } from '../../../src/features/tokens/token-modal.ts';
import { translators } from '../../support/render.ts';

/** The modal's opt-in: read from a real select submission (Discord's) and from a text one (the stand-in's). */
function submitted(field: unknown): ModalSubmitInteraction {
  return {
    fields: {
      getField: (id: string) => {
        if (id !== 'remember' || field === undefined) throw new Error('no such field');
        return field;
      },
    },
  } as unknown as ModalSubmitInteraction;
}

describe('wantsRemembering', () => {
  it('is yes only when "yes" was chosen', () => {
    const select = (values: string[]) => ({ type: ComponentType.StringSelect, customId: 'remember', values });
    expect(wantsRemembering(submitted(select(['yes'])))).toBe(true);
    expect(wantsRemembering(submitted(select(['no'])))).toBe(false);
    expect(wantsRemembering(submitted(select([])))).toBe(false);
    expect(wantsRemembering(submitted({ type: ComponentType.TextInput, value: 'yes' }))).toBe(true);
    expect(wantsRemembering(submitted({ type: ComponentType.TextInput, value: 'YES please' }))).toBe(false);
    expect(wantsRemembering(submitted(undefined))).toBe(false);
  });
});

describe('tokenModal', () => {
  it('fits Discord limits in every language, with "no" chosen by default', () => {
    for (const t of Object.values(translators)) {
      const modal = tokenModal(t, 'me:wallet~zz', t.t('me:modal.title.wallet'));
      expect(modal.title.length).toBeLessThanOrEqual(45);
      const [token, remember] = modal.components as Array<{
        label: string;
        description?: string;
        component: { custom_id: string; options?: Array<{ value: string; default?: boolean }> };
      }>;
      expect(token?.component.custom_id).toBe('secret');
      expect(remember?.label.length).toBeLessThanOrEqual(45);
      expect((remember?.description ?? '').length).toBeLessThanOrEqual(100);
      expect(remember?.component.options?.filter((o) => o.default).map((o) => o.value)).toEqual(['no']);
    }
  });
});

import { renderModList } from '../../support/with-ids.ts';
import { describe, expect, it } from 'vitest';
import { pageArg } from '../../../commands/mods.ts';
import type { Mod, ModsPage } from '../../../src/api/schemas/index.ts';
import { UserError } from '../../../src/core/user-error.ts';
import { renderModInfo } from '../../../src/features/mods/render.ts';
import { Colors } from '../../../src/render/payload.ts';

import { HOSTILE, buttons, expectSafe, translators, useSandboxApi } from '../../support/render.ts';

const { en, de } = translators;
const NOW = Date.UTC(2026, 4, 1, 12, 0, 0);
const live = useSandboxApi({ rateLimit: { limit: 10_000, windowMs: 60_000 } });

describe('mods list', () => {
  it('renders the first page in the API order with ranks, featured marks, creators and paging', async () => {
    const data = await live.client.api.mods({ page: 1 });
    expect(data.mods).toHaveLength(10);
    const payload = renderModList(en, { data, page: 1, now: NOW });
    expectSafe(payload);
    const description = payload.embeds?.[0]?.description ?? '';
    const lines = description.split('\n');
    expect(lines).toHaveLength(10);
    data.mods.forEach((mod, i) => {
      expect(lines[i]).toMatch(new RegExp(`^\\*\\*${i + 1}\\.\\*\\* `));
      expect(lines[i]?.includes('⭐')).toBe(mod.featured === true);
      expect(lines[i]).toContain(`👍 ${en.n(mod.votes ?? 0)}`);
    });
    const [previous, label, next] = buttons(payload);
    expect(previous?.disabled).toBe(true);
    expect(label?.disabled).toBe(true);
    expect(next?.disabled).toBe(false);
    const nextId = next?.id;
    expect(nextId).toMatchObject({ command: 'mods', action: 'list', args: ['2'] });
    expect(pageArg(nextId!)).toBe(2);
  });

  it('numbers a later page from where the previous one stopped, in another locale too', async () => {
    const data = await live.client.api.mods({ page: 2 });
    const payload = renderModList(de, { data, page: 2, now: NOW });
    expectSafe(payload);
    expect(payload.embeds?.[0]?.description?.startsWith('**11.** ')).toBe(true);
    expect(payload.embeds?.[0]?.title).toBe('Mods nach Stimmen');
    const [previous] = buttons(payload);
    expect(previous?.id?.args).toEqual(['1']);
    expect(previous?.disabled).toBe(false);
  });

  it('says so when a page is past the end, and offers no next page', async () => {
    const data = await live.client.api.mods({ page: 500 });
    expect(data.mods).toEqual([]);
    const payload = renderModList(en, { data, page: 500, now: NOW });
    expectSafe(payload);
    expect(payload.embeds?.[0]?.description).toBe('No mods on this page.');
    expect(buttons(payload)[2]?.disabled).toBe(true);
  });

  it('escapes hostile names and creators and keeps a page of very long ones within limits', () => {
    const mods: Mod[] = Array.from({ length: 10 }, (_, i) => ({
      mod_id: i,
      name: `${HOSTILE} ${'N'.repeat(300)}`,
      creator_name: `${HOSTILE}${'C'.repeat(300)}`,
      votes: 1e12,
      featured: i % 2 === 0,
    }));
    const payload = renderModList(en, { data: { mods, page: 1, per_page: 10 }, page: 1, now: NOW });
    expectSafe(payload);
    expect(payload.embeds?.[0]?.description).toContain('\\*\\*@\u200Beveryone\\*\\*');
  });

  it('treats a page without per_page as the documented 10', () => {
    const data: ModsPage = { mods: [{ mod_id: 1, name: 'Solo' }] };
    const payload = renderModList(en, { data, page: 1, now: NOW });
    expectSafe(payload);
    expect(payload.embeds?.[0]?.description).toBe('**1.** **Solo** · by — · 👍 —');
    expect(buttons(payload)[2]?.disabled).toBe(true);
  });
});

describe('mod info', () => {
  it('renders a sandbox mod with creator, votes, version, featured, dates and description', async () => {
    const mod = await live.client.api.mod({ modName: live.sandbox.world.samples.mod });
    for (const t of [en, de]) {
      const payload = renderModInfo(t, mod);
      expectSafe(payload);
      const embed = payload.embeds?.[0];
      expect(embed?.title).toContain(mod.name);
      expect(embed?.color).toBe(mod.featured ? Colors.gold : Colors.info);
      const values = Object.fromEntries((embed?.fields ?? []).map((f) => [f.name, f.value]));
      if (t === en) {
        expect(values['Votes']).toBe(en.n(mod.votes ?? 0));
        expect(values['Version']).toBe(en.n(mod.version ?? 0));
        expect(values['Featured']).toBe(mod.featured ? 'Yes' : 'No');
        expect(values['Created']).toMatch(/^<t:\d+:D>$/);
        expect(values['Updated']).toMatch(/^<t:\d+:R>$/);
        expect(embed?.footer?.text).toBe(`Mod #${mod.mod_id}`);
      } else {
        expect(values['Ersteller']).toBeDefined();
      }
    }
  });

  it('reads the `YYYY-MM-DD HH:MM:SS` dates as UTC', () => {
    const payload = renderModInfo(en, { mod_id: 3, name: 'Dated', created_at: '2024-02-03 04:05:06' });
    const created = payload.embeds?.[0]?.fields?.find((f) => f.name === 'Created');
    expect(created?.value).toBe(`<t:${Date.UTC(2024, 1, 3, 4, 5, 6) / 1000}:D>`);
  });

  it('escapes a hostile description and cuts a very long one', () => {
    const payload = renderModInfo(en, {
      mod_id: 1,
      name: HOSTILE,
      creator_name: HOSTILE,
      description: `${HOSTILE}\n- list\n> quote\n# heading\n${'x'.repeat(20_000)}`,
      featured: true,
      votes: 5,
      version: 2,
      created_at: '2024-01-01 00:00:00',
      updated_at: 'not a date',
    });
    expectSafe(payload);
    const embed = payload.embeds?.[0];
    expect(embed?.title?.startsWith('⭐ ')).toBe(true);
    expect(embed?.description).toContain('\n\\- list\n\\> quote\n\\# heading');
    expect(embed?.description?.endsWith('…')).toBe(true);
    expect(embed?.fields?.find((f) => f.name === 'Updated')?.value).toBe('—');
  });

  it('fills in missing optional fields', () => {
    const payload = renderModInfo(de, { mod_id: 9, name: 'Bare' });
    expectSafe(payload);
    const embed = payload.embeds?.[0];
    expect(embed?.description).toBe('Dieser Mod hat keine Beschreibung.');
    expect(embed?.fields?.every((f) => f.value === '—')).toBe(true);
  });
});

describe('mods buttons', () => {
  it('refuses page arguments the command never makes', () => {
    for (const args of [[], ['0'], ['x'], ['1.5'], ['1001']]) {
      expect(() => pageArg({ command: 'mods', action: 'list', args, expiresAt: 0 })).toThrow(UserError);
    }
    expect(pageArg({ command: 'mods', action: 'list', args: ['7'], expiresAt: 0 })).toBe(7);
  });
});

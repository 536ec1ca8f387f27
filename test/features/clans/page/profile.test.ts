import { describe, expect, it } from 'vitest';
import {
  ClanLootConfigSchema,
  ClanMotdSchema,
  ClanProfileSchema,
} from '../../../../src/api/schemas/index.ts';
import { clanPageButtons, clanPageIds } from '../../../../src/features/clans/page/ids.ts';
import { lootText, motdText, renderClanPage } from '../../../../src/features/clans/page/profile.ts';
import {
  HOSTILE,
  LONG_HOSTILE,
  NASTY,
  buttons,
  embedOf,
  expectSafe,
  fieldsOf,
  translators,
} from '../../../support/render.ts';

/** `/clan profile`'s own words: the message of the day and the turf earnings split, hostile text inert. */
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const { en, de } = translators;

const clan = ClanProfileSchema.parse({
  name: 'VOID',
  owner_name: 'Boss',
  score: 1000,
  rank: 4,
  member_count: 12,
  created_at: '2025-01-02T03:04:05Z',
});

describe('clan page', () => {
  it('shows the message of the day and how the clan splits turf earnings', () => {
    const payload = renderClanPage(en, {
      clan,
      motd: ClanMotdSchema.parse({ motd: 'Scrims at 20:00 UTC' }),
      loot: ClanLootConfigSchema.parse({ clan_id: 1, mode: 'points', leader_share: 20, member_share: 80 }),
      membersId: clanPageButtons.members('VOID', NOW),
      past: { now: NOW },
    });
    expectSafe(payload);
    const fields = fieldsOf(payload);
    expect(fields['Owner']).toBe('Boss');
    expect(fields['Message of the day']).toBe('Scrims at 20:00 UTC');
    expect(fields['Turf earnings split']).toBe('Split by points scored\nLeader 20% · members 80%');
    expect(buttons(payload).map((b) => b.label)).toEqual(['Members']);
  });

  it('keeps a hostile message of the day and an unknown split mode inert', () => {
    for (const text of [HOSTILE, NASTY, LONG_HOSTILE, `${HOSTILE}\n# heading\n> quote\n-# small`]) {
      for (const t of Object.values(translators)) {
        const payload = renderClanPage(t, {
          clan: { ...clan, name: HOSTILE, owner_name: NASTY },
          motd: { motd: text },
          loot: ClanLootConfigSchema.parse({ mode: NASTY, leader_share: 5 }),
          membersId: undefined,
        });
        expectSafe(payload);
      }
    }
    expect(motdText(en, { motd: HOSTILE })).toBe(
      '\\*\\*@\u200beveryone\\*\\* <\u200b@123> # head \\[x\\](http://e.vil)',
    );
    expect(lootText(en, ClanLootConfigSchema.parse({ mode: '**x** @here' }))).toBe(
      'Split: unknown mode \\*\\*x\\*\\* @\u200bhere',
    );
  });

  it('says what the game did not give, and degrades a share out of range to unknown', () => {
    expect(motdText(de, undefined)).toBe('Das Spiel hat die Nachricht des Tages gerade nicht geliefert.');
    expect(motdText(en, { motd: '   ' })).toBe('No message of the day.');
    expect(motdText(en, {})).toBe('No message of the day.');
    expect(lootText(en, undefined)).toBe("The game did not give the clan's split just now.");
    const odd = ClanLootConfigSchema.parse({ mode: 'equal', leader_share: 250, member_share: 'x' });
    expect(odd).toEqual({ mode: 'equal' });
    expect(lootText(en, odd)).toBe('Split equally between members');
    expect(lootText(en, ClanLootConfigSchema.parse({ leader_share: 12.5 }))).toBe(
      'Split: not given\nLeader 12.5% · members —',
    );
  });

  it('leads back to the recruitment page it was opened from', () => {
    const state = { region: 3, language: 'de', page: 2 };
    const payload = renderClanPage(en, {
      clan,
      motd: undefined,
      loot: undefined,
      membersId: clanPageButtons.members('VOID', NOW),
      backId: clanPageButtons.back(state, NOW),
    });
    expectSafe(payload);
    const [back, members] = buttons(payload);
    expect(back?.label).toBe('Back to recruitment');
    expect(back?.id && clanPageIds.decode(back.id)?.args).toEqual({ region: '3', language: 'de', page: '2' });
    expect(members?.label).toBe('Members');
    expect(embedOf(payload).fields?.map((f) => f.name)).toContain('Message of the day');
  });
});

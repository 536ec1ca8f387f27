import { describe, expect, it } from 'vitest';
import { MAX_LISTED, type RosterChange } from '../../../../src/features/clans/log/model.ts';
import { renderClanLog } from '../../../../src/features/clans/log/render.ts';
import { checkMessageLimits } from '../../../../src/render/text.ts';
import { NASTY, expectSafe, translators } from '../../../support/render.ts';

/** A clan log post: one message, an embed per kind of change, within Discord's limits whatever it holds. */
const AT = Date.UTC(2026, 10, 21, 12);

function empty(): RosterChange {
  return { joined: [], left: [], renamed: [], promoted: [], demoted: [], milestones: [] };
}

const every: RosterChange = {
  joined: [{ n: 'Cid', r: 0, s: 0 }],
  left: [{ n: 'Dee', r: 1, s: 12_345 }],
  renamed: [{ from: 'Ann', to: 'Anna', s: 40_000 }],
  promoted: [{ n: 'Bob', from: 0, to: 1 }],
  demoted: [{ n: 'Eve', from: 2, to: 7 }],
  owner: { from: 'Boss', to: 'Ann' },
  milestones: [{ n: 'Fay', milestone: 100_000, s: 100_500 }],
  memberCount: { from: 20, to: 21 },
  rank: { from: 12, to: 9 },
};

describe('renderClanLog', () => {
  it('puts every kind of change of one read in one message, an embed each', () => {
    const payload = renderClanLog(translators.en, { clanName: 'Vortex', change: every, at: AT });
    expectSafe(payload, { components: false });
    expect(payload.embeds?.map((e) => e.title)).toEqual([
      'Vortex: new owner',
      'Vortex: joined (1)',
      'Vortex: left (1)',
      'Vortex: probably renamed (1)',
      'Vortex: promoted (1)',
      'Vortex: demoted (1)',
      'Vortex: score milestones (1)',
      'Vortex: the clan',
    ]);
    const text = (payload.embeds ?? []).map((e) => e.description).join('\n');
    expect(text).toContain('The clan passed from **Boss** to **Ann**.');
    expect(text).toContain('**Dee** · Officer · score 12,345');
    expect(text).toContain('**Ann** → **Anna** (same score, 40,000)');
    // A role the names table does not know reads naturally, in the reader's language.
    expect(text).toContain('**Eve**: Co-leader → Unknown role 7');
    expect(text).toContain('Clan leaderboard: #12 → #9');
    expect(payload.embeds?.at(-1)?.timestamp).toBe(new Date(AT).toISOString());
  });

  it('reads in every locale with no key left untranslated', () => {
    for (const t of Object.values(translators)) {
      const payload = renderClanLog(t, { clanName: 'Vortex', change: every, at: AT });
      expectSafe(payload, { components: false });
      expect(payload.embeds).toHaveLength(8);
    }
    const de = renderClanLog(translators.de, { clanName: 'Vortex', change: every, at: AT });
    expect(JSON.stringify(de.embeds)).toContain('Unbekannte Rolle 7');
  });

  it('shows hostile names as text', () => {
    const change: RosterChange = {
      ...every,
      joined: [{ n: NASTY.slice(0, 64), r: 0, s: 1 }],
      owner: { from: '@everyone', to: '<@&789>' },
    };
    const payload = renderClanLog(translators.en, { clanName: NASTY, change, at: AT });
    expectSafe(payload, { components: false });
  });

  it('stays within Discord’s limits with every list full of long hostile names, counting what it leaves out', () => {
    const long = (i: number) => `${NASTY}${i}`.slice(0, 64);
    const full: RosterChange = {
      joined: Array.from({ length: MAX_LISTED }, (_, i) => ({ n: long(i), r: i, s: 1e12 })),
      left: Array.from({ length: MAX_LISTED }, (_, i) => ({ n: long(i), r: 0, s: i })),
      renamed: Array.from({ length: MAX_LISTED }, (_, i) => ({ from: long(i), to: long(i + 1), s: i + 1 })),
      promoted: Array.from({ length: MAX_LISTED }, (_, i) => ({ n: long(i), from: 0, to: 1 })),
      demoted: Array.from({ length: MAX_LISTED }, (_, i) => ({ n: long(i), from: 2, to: 1 })),
      owner: { from: long(1), to: long(2) },
      milestones: Array.from({ length: MAX_LISTED }, (_, i) => ({
        n: long(i),
        milestone: 10_000,
        s: 10_001,
      })),
      memberCount: { from: 1, to: 2_000 },
      rank: { from: 1, to: 2 },
      more: { joined: 1_800 },
    };
    for (const t of Object.values(translators)) {
      const payload = renderClanLog(t, { clanName: NASTY, change: full, at: AT });
      expect(checkMessageLimits(payload)).toEqual([]);
      expectSafe(payload, { components: false });
      expect(payload.embeds).toHaveLength(8);
    }
    const en = renderClanLog(translators.en, { clanName: 'Vortex', change: full, at: AT });
    const joined = en.embeds?.find((e) => e.title?.startsWith('Vortex: joined')) ?? {};
    expect(joined.title).toBe('Vortex: joined (2,000)');
    expect(joined.description).toMatch(/…and [\d,]+ more$/);
  });

  it('gives one long list two embeds when it is the only change', () => {
    const change: RosterChange = {
      ...empty(),
      joined: Array.from({ length: MAX_LISTED }, (_, i) => ({ n: `Player${i}`, r: 0, s: 1_000 + i })),
    };
    const payload = renderClanLog(translators.en, { clanName: 'Vortex', change, at: AT });
    expect(checkMessageLimits(payload)).toEqual([]);
    expect(payload.embeds?.map((e) => e.title)).toEqual(['Vortex: joined (200)', 'Vortex: joined (200) (2)']);
  });
});

import { clanRoleName } from '../../../src/render/names.ts';
import { renderClanMembers, renderClanProfile } from '../../support/with-ids.ts';
import { describe, expect, it } from 'vitest';
import { clanNameOf } from '../../../commands/clan.ts';
import { parsePage } from '../../../src/discord/options.ts';
import type { ClanMember, ClanMembers, ClanProfile } from '../../../src/api/schemas/index.ts';
import { decodeComponentId } from '../../../src/discord/component-id.ts';
import { UserError } from '../../../src/core/user-error.ts';
import { inviteUrl, memberPages } from '../../../src/features/clans/render.ts';
import { text } from '../../../src/render/common.ts';

import {
  HOSTILE,
  LONG,
  customIds,
  embedOf,
  expectSafe,
  fieldValue,
  translators,
  useSandboxApi,
} from '../../support/render.ts';

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const { en, de } = translators;
const live = useSandboxApi({ now: () => NOW });

describe('clan profile', () => {
  it('renders a sandbox clan with owner, score, rank, members, founding date and its invite', async () => {
    const clan = await live.client.api.clan({ clanName: live.sandbox.world.samples.clan });
    const payload = renderClanProfile(en, clan, NOW);
    expectSafe(payload);
    const embed = embedOf(payload);
    expect(embed.title).toBe('Vortex');
    expect(fieldValue(embed, 'Owner')).toBe(clan.owner_name);
    expect(fieldValue(embed, 'Score')).toBe(en.n(clan.score ?? NaN));
    expect(fieldValue(embed, 'Rank')).toBe(`#${String(clan.rank)}`);
    expect(fieldValue(embed, 'Members')).toBe(String(clan.member_count));
    expect(fieldValue(embed, 'Founded')).toBe(`<t:${Date.parse(clan.created_at ?? '') / 1000}:D>`);
    expect(fieldValue(embed, 'Chat invite')).toBe(`https://discord.gg/${clan.discord ?? ''}`);
    const ids = customIds(payload).map((id) => decodeComponentId(id));
    expect(ids).toEqual([
      { command: 'clan', action: 'members', args: ['Vortex', '1'], expiresAt: expect.any(Number) },
    ]);
    expect(ids[0]?.expiresAt).toBeGreaterThan(NOW);
  });

  it('escapes a clan name made of markdown', async () => {
    const clan = await live.client.api.clan({ clanName: live.sandbox.world.samples.markdownClan });
    const payload = renderClanProfile(en, clan, NOW);
    expectSafe(payload);
    expect(embedOf(payload).title).toBe('\\*\\_\\~\\|Ghosts\\|\\~\\_\\*');
    expect(decodeComponentId(customIds(payload)[0] ?? '')?.args[0]).toBe(
      live.sandbox.world.samples.markdownClan,
    );
  });

  it('renders in German with German labels and number format', async () => {
    const clan = await live.client.api.clan({ clanName: live.sandbox.world.samples.clan });
    const embed = embedOf(renderClanProfile(de, clan, NOW));
    const score = de.n(clan.score ?? NaN);
    expect(score).toContain('.');
    expect(embed.fields?.map((f) => f.value)).toContain(score);
    expect(embed.fields?.map((f) => f.name)).not.toContain('Owner');
  });

  it('shows the invite only for a plausible invite code, never as a masked link', () => {
    const bad = [
      '',
      '   ',
      'a',
      'x'.repeat(33),
      'evil.com/x',
      '[x](http://e.vil)',
      'ab cd',
      'ab/../cd',
      '<@123>',
    ];
    for (const code of bad) {
      const embed = embedOf(renderClanProfile(en, { name: 'C', discord: code }, NOW));
      expect(fieldValue(embed, 'Chat invite')).toBeUndefined();
      expect(JSON.stringify(embed)).not.toContain('discord.gg');
    }
    expect(
      fieldValue(embedOf(renderClanProfile(en, { name: 'C', discord: ' ab-12 ' }, NOW)), 'Chat invite'),
    ).toBe('https://discord.gg/ab-12');
    expect(inviteUrl('A'.repeat(32))).toBe(`https://discord.gg/${'A'.repeat(32)}`);
    expect(inviteUrl(undefined)).toBeUndefined();
  });

  it('stays within limits with hostile and very long text and missing fields', () => {
    for (const clan of [
      { name: HOSTILE, owner_name: HOSTILE, discord: HOSTILE },
      { name: LONG, owner_name: LONG, created_at: 'not a date' },
      { name: 'Bare' },
    ] satisfies ClanProfile[]) {
      for (const t of [en, de]) {
        const payload = renderClanProfile(t, clan, NOW);
        expectSafe(payload);
        expect(embedOf(payload).fields?.every((f) => f.value.trim() !== '')).toBe(true);
      }
    }
    const bare = embedOf(renderClanProfile(en, { name: 'Bare' }, NOW));
    expect(fieldValue(bare, 'Rank')).toBe('—');
    expect(fieldValue(bare, 'Founded')).toBe('—');
  });

  it('drops the members button when the name does not fit in a custom id', () => {
    expect(customIds(renderClanProfile(en, { name: LONG }, NOW))).toEqual([]);
  });
});

describe('clan members', () => {
  it('renders a sandbox page in the API order with role names and scores', async () => {
    const data = await live.client.api.clanMembers({ clanName: live.sandbox.world.samples.clan, page: 1 });
    const payload = renderClanMembers(en, { name: 'Vortex', data, page: 1, memberCount: 5, now: NOW });
    expectSafe(payload);
    const lines = (embedOf(payload).description ?? '').split('\n');
    expect(lines).toHaveLength(data.members.length);
    data.members.forEach((member, i) => {
      // Bullets, not places: the API orders members by role, not by rank.
      expect(lines[i]).toContain(`• ${text(member.player_name, 100)}`);
      expect(lines[i]).not.toContain('#');
      expect(lines[i]).toContain(` · ${clanRoleName(en, member.role)} · `);
      expect(lines[i]).not.toMatch(/Role \d/);
      expect(lines[i]).toContain(`score ${en.n(member.score ?? NaN)}`);
    });
    expect(embedOf(payload).footer?.text).toBe('5 members · by role, then score');
    const buttons = payload.components?.[0]?.components ?? [];
    expect(buttons.map((b) => ('label' in b ? b.label : undefined))).toEqual([
      '◀ Previous',
      'Page 1 of 1',
      'Next ▶',
    ]);
    expect(buttons.map((b) => ('disabled' in b ? b.disabled : undefined))).toEqual([true, true, true]);
  });

  it('renders in German', async () => {
    const data = await live.client.api.clanMembers({ clanName: live.sandbox.world.samples.clan, page: 1 });
    const payload = renderClanMembers(de, { name: 'Vortex', data, page: 1, memberCount: 5, now: NOW });
    expectSafe(payload);
    expect(embedOf(payload).title).not.toBe('Members of Vortex');
    expect(embedOf(payload).title).toContain('Vortex');
  });

  it('pages by the member count and carries the clan name and page in the button ids', () => {
    const members: ClanMember[] = Array.from({ length: 10 }, (_, i) => ({
      player_name: `P${i}`,
      role: 0,
      verified: i % 2 === 0,
      score: 1000 - i,
    }));
    const data: ClanMembers = { page: 2, per_page: 10, members };
    const payload = renderClanMembers(en, { name: 'Big:Clan~', data, page: 2, memberCount: 95, now: NOW });
    expectSafe(payload);
    const description = embedOf(payload).description ?? '';
    expect(description.split('\n')[0]).toBe('• P0 ✅ · Member · score 1,000');
    expect(description.split('\n')[1]).toBe('• P1 · Member · score 999');
    expect(embedOf(payload).footer?.text).toBe('95 members · by role, then score · ✅ verified');
    const ids = customIds(payload).map((id) => decodeComponentId(id));
    expect(ids[0]?.args).toEqual(['Big:Clan~', '1']);
    expect(ids[2]?.args).toEqual(['Big:Clan~', '3']);
    const buttons = payload.components?.[0]?.components ?? [];
    expect(buttons.map((b) => ('label' in b ? b.label : undefined))[1]).toBe('Page 2 of 10');
    expect(buttons.map((b) => ('disabled' in b ? b.disabled : undefined))).toEqual([false, true, false]);
  });

  it('keeps "next" on for a full page when the member count is unknown, off for a short one', () => {
    const full: ClanMembers = { members: Array.from({ length: 10 }, (_, i) => ({ player_name: `P${i}` })) };
    const short: ClanMembers = { members: [{ player_name: 'Solo' }] };
    const nextOf = (data: ClanMembers) => {
      const buttons =
        renderClanMembers(en, { name: 'C', data, page: 1, now: NOW }).components?.[0]?.components ?? [];
      const next = buttons[2];
      return next && 'disabled' in next ? next.disabled : undefined;
    };
    expect(nextOf(full)).toBe(false);
    expect(nextOf(short)).toBe(true);
  });

  it('shows members without role, score or verified mark, hostile and long names, and an empty page', () => {
    const members: ClanMember[] = [
      { player_name: HOSTILE },
      { player_name: LONG, role: 2, verified: true, score: 0 },
      ...Array.from({ length: 8 }, (_, i) => ({
        player_name: `${'M'.repeat(90)}${i}`,
        role: 1,
        score: 2 ** 40,
      })),
    ];
    for (const t of [en, de]) {
      const payload = renderClanMembers(t, {
        name: HOSTILE,
        data: { members },
        page: 1,
        memberCount: 10,
        now: NOW,
      });
      expectSafe(payload);
    }
    const lines = (
      embedOf(renderClanMembers(en, { name: 'C', data: { members }, page: 1, now: NOW })).description ?? ''
    ).split('\n');
    expect(lines[0]).toBe(
      '• \\*\\*@\u200Beveryone\\*\\* <\u200B@123> # head \\[x\\](http://e.vil) · Role unknown',
    );
    expect(lines[1]).toContain('✅ · Co-leader · score 0');

    const empty = renderClanMembers(en, {
      name: 'C',
      data: { members: [] },
      page: 4,
      memberCount: 12,
      now: NOW,
    });
    expectSafe(empty);
    expect(embedOf(empty).description).toBe('No members on this page.');
  });

  it('says one member, not one members, in every locale', () => {
    const data: ClanMembers = { members: [{ player_name: 'Solo', role: 2, score: 5 }] };
    const footer = (t: typeof en, memberCount: number) =>
      embedOf(renderClanMembers(t, { name: 'C', data, page: 1, memberCount, now: NOW })).footer?.text;
    expect(footer(en, 1)).toBe('1 member');
    expect(footer(en, 1200)).toBe('1,200 members');
    expect(footer(translators.ru, 1)).toBe('1 участник');
    expect(footer(translators.ru, 3)).toBe('3 участника');
    expect(footer(translators.ru, 5)).toBe('5 участников');
    expect(footer(translators.pl, 22)).toBe('22 członkowie');
  });

  it('counts pages from the member count', () => {
    expect(memberPages(undefined)).toBeUndefined();
    expect(memberPages(0)).toBe(1);
    expect(memberPages(10)).toBe(1);
    expect(memberPages(11)).toBe(2);
    expect(memberPages(-1)).toBeUndefined();
  });
});

describe('/clan command', () => {
  it('checks names and pages again', () => {
    expect(clanNameOf('  Vortex ')).toBe('Vortex');
    expect(() => clanNameOf('   ')).toThrow(UserError);
    expect(() => clanNameOf(null)).toThrow(UserError);
    expect(parsePage(null) ?? 1).toBe(1);
    expect(parsePage('3') ?? 1).toBe(3);
    expect(parsePage('0') ?? 1).toBe(1);
    expect(parsePage('1001') ?? 1).toBe(1);
    expect(parsePage('2.5') ?? 1).toBe(1);
    expect(parsePage('x') ?? 1).toBe(1);
  });
});

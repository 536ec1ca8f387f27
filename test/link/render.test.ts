import { describe, expect, it } from 'vitest';
import { Translations } from '../../src/i18n/index.ts';
import { CODE_LIFETIME_MS, generateCode, type PendingLink } from '../../src/link/verification.ts';
import {
  renderLinkNotFound,
  renderLinkStarted,
  renderLinkVerified,
  renderUnlinked,
} from '../../src/render/link.ts';
import type { ReplyPayload } from '../../src/render/payload.ts';
import { checkMessageLimits } from '../../src/render/text.ts';

const translations = new Translations();
const en = translations.for('en-US');
const ru = translations.for('ru');
const HOSTILE = '**@everyone** <@123> # head [x](http://e.vil)';
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

function pending(playerName: string): PendingLink {
  return { playerName, code: generateCode(), issuedAt: NOW, expiresAt: NOW + CODE_LIFETIME_MS };
}

function expectSafe(payload: ReplyPayload): void {
  expect(checkMessageLimits(payload)).toEqual([]);
  expect(payload.ephemeral).toBe(true);
  const serialized = JSON.stringify(payload.embeds);
  expect(serialized).not.toMatch(/@(everyone|here)/);
  expect(serialized).not.toContain('<@');
  expect(serialized).not.toMatch(/"(link|unlink|common):[a-zA-Z.]+"/);
}

describe('link replies', () => {
  it('give the code to post, when it expires and how many checks there are', () => {
    const p = pending('Ghost');
    const payload = renderLinkStarted(en, p, 5);
    expectSafe(payload);
    const description = payload.embeds![0]!.description!;
    expect(description).toContain(`\`${p.code}\``);
    expect(description).toContain(`<t:${Math.floor(p.expiresAt / 1000)}:R>`);
    expect(description).toContain('5 checks');
    expect(description).toContain('/link verify');
    expect(renderLinkStarted(ru, p, 5).embeds![0]!.description).toContain('/привязка проверить');
  });

  it('say how many checks are left, or that it was the last', () => {
    expect(renderLinkNotFound(en, pending('Ghost'), 3).embeds![0]!.description).toContain(
      'Checks left for this code: 3.',
    );
    expect(renderLinkNotFound(en, pending('Ghost'), 0).embeds![0]!.description).toContain(
      'That was the last check',
    );
  });

  it('confirm the link and the unlink', () => {
    expect(renderLinkVerified(en, 'Ghost').embeds![0]!.description).toContain('**Ghost**');
    expect(renderUnlinked(en, 'Ghost', false).embeds![0]!.description).toBe(
      'You are no longer linked to **Ghost**.',
    );
    expect(renderUnlinked(en, undefined, true).embeds![0]!.description).toBe(
      'Your linking under way was cancelled.',
    );
    expect(renderUnlinked(en, undefined, false).embeds![0]!.description).toBe(
      'Your Discord account is not linked to a game account.',
    );
  });

  it('stay within limits with hostile and long names, in every shape', () => {
    const name = `${HOSTILE}${'W'.repeat(300)}`;
    for (const t of [en, ru]) {
      expectSafe(renderLinkStarted(t, pending(name), 5));
      expectSafe(renderLinkNotFound(t, pending(name), 2));
      expectSafe(renderLinkNotFound(t, pending(name), 0));
      expectSafe(renderLinkVerified(t, name));
      expectSafe(renderUnlinked(t, name, true));
      expectSafe(renderUnlinked(t, undefined, false));
    }
  });
});

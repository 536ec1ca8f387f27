import { describe, expect, it } from 'vitest';
import {
  CODE_LIFETIME_MS,
  generateCode,
  type PendingLink,
} from '../../../src/features/links/verification.ts';
import {
  renderLinkNotFound,
  renderLinkStarted,
  renderLinkVerified,
  renderUnlinked,
} from '../../../src/features/links/render.ts';
import { HOSTILE, expectSafe, translators } from '../../support/render.ts';

const { en, ru } = translators;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const PRIVATE = { ephemeral: true } as const;

function pending(playerName: string): PendingLink {
  return { playerName, code: generateCode(), issuedAt: NOW, expiresAt: NOW + CODE_LIFETIME_MS };
}

describe('link replies', () => {
  it('give the code to post, when it expires and how many checks there are', () => {
    const p = pending('Ghost');
    const payload = renderLinkStarted(en, p, 5);
    expectSafe(payload, PRIVATE);
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
      expectSafe(renderLinkStarted(t, pending(name), 5), PRIVATE);
      expectSafe(renderLinkNotFound(t, pending(name), 2), PRIVATE);
      expectSafe(renderLinkNotFound(t, pending(name), 0), PRIVATE);
      expectSafe(renderLinkVerified(t, name), PRIVATE);
      expectSafe(renderUnlinked(t, name, true), PRIVATE);
      expectSafe(renderUnlinked(t, undefined, false), PRIVATE);
    }
  });
});

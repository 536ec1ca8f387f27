import { describe, expect, it } from 'vitest';
import type { TradesHistory } from '../../../src/api/schemas/index.ts';
import {
  forgottenUpdate,
  krDirection,
  renderForgotten,
  renderTrades,
  renderWallet,
  withControls,
} from '../../../src/features/tokens/render.ts';
import { expectSafe, NASTY, translators } from '../../support/render.ts';

/** The token tier's pieces of `/me` replies: the kept-token note and button, pages, KR direction. */
const en = translators.en;
const PRIVATE = { ephemeral: true } as const;
const pager = {
  page: (p: number) => `me:matches:${p}~zzzz`,
  label: 'me:page-label~zzzz',
};

describe('which way KR went', () => {
  it('is read from the sign of kr, from the owner side', () => {
    expect(krDirection(250)).toBe('received');
    expect(krDirection(-250)).toBe('given');
    expect(krDirection(0)).toBe('none');
    expect(krDirection(undefined)).toBe('none');
    expect(krDirection(Number.NaN)).toBe('none');
  });

  const trades: TradesHistory = {
    trades: [
      { id: '1', st: 1, pn: NASTY, gv: [1], rc: [], kr: 1500, ts: '2026-11-01T00:00:00Z' },
      { id: '2', st: 1, pn: 'Bob', gv: [], rc: [2], kr: -20000, ts: '2026-11-02T00:00:00Z' },
      { id: '3', st: 2, pn: 'Eve', gv: [], rc: [], kr: 0, ts: '2026-11-03T00:00:00Z' },
    ],
  };

  it('shows an arrow and a sign for each trade, the amount in the reader locale', () => {
    const values = renderTrades(en, trades, 1, () => undefined).embeds![0]!.fields!.map((f) => f.value);
    expect(values[0]).toContain('📥 +1,500 KR received');
    expect(values[1]).toContain('📤 −20,000 KR given');
    expect(values[2]).toContain('No KR');
    const de = renderTrades(translators.de, trades, 1, () => undefined).embeds![0]!.fields!;
    expect(de[1]!.value).toContain('📤 −20.000 KR gegeben');
  });

  it('stays safe with hostile partner names in every language', () => {
    for (const t of Object.values(translators))
      expectSafe(
        renderTrades(t, trades, 1, () => 'x'),
        PRIVATE,
      );
  });
});

describe('withControls', () => {
  const wallet = renderWallet(en, { kr: 10 });

  it('adds nothing but the page row when the token is not kept', () => {
    const payload = withControls(en, wallet, {}, { pager, page: 2, hasNext: true, totalPages: 3 });
    expect(payload.content).toBeUndefined();
    expect(payload.components).toHaveLength(1);
    expect(JSON.stringify(payload.components)).not.toContain('Forget');
    expect(withControls(en, wallet, {}).components).toEqual([]);
    expectSafe(payload, PRIVATE);
  });

  it('says until when the token is kept and offers to forget it, in every language', () => {
    for (const t of Object.values(translators)) {
      const payload = withControls(t, wallet, { forgetId: 'me:forget~zzzz', keptUntil: 1_800_000_000_000 });
      expect(payload.content).toContain('<t:1800000000:R>');
      const [row] = payload.components!;
      expect(row!.components).toEqual([
        expect.objectContaining({ custom_id: 'me:forget~zzzz', style: 4, type: 2 }),
      ]);
      expectSafe(payload, PRIVATE);
    }
  });
});

describe('forgetting', () => {
  it('keeps the data of the reply, with a note, and the other rows', () => {
    const embeds = wallet().embeds!;
    const update = forgottenUpdate(en, embeds, []);
    expect(update.embeds).toEqual(embeds);
    expect(update.content).toBe('🔒 Your access token was forgotten. /me will ask for it again.');
    expect(update.ephemeral).toBeUndefined();
  });

  it('says whether there was anything to forget', () => {
    expect(renderForgotten(en, true).embeds![0]!.title).toBe('Token forgotten');
    expect(renderForgotten(en, false).embeds![0]!.title).toBe('Nothing to forget');
    for (const t of Object.values(translators)) {
      expectSafe(renderForgotten(t, true), PRIVATE);
      expectSafe(forgottenUpdate(t, wallet().embeds!, []));
    }
  });
});

function wallet() {
  return renderWallet(en, { kr: 10 });
}

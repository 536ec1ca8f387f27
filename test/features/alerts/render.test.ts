import { describe, expect, it } from 'vitest';
import { renderAlertAdded, type AlertView } from '../../../src/features/alerts/render.ts';
import { embedOf, expectSafe, translators } from '../../support/render.ts';

const alert = (direction: 'below' | 'above', threshold: number): AlertView => ({
  id: 'a1b2',
  skinName: 'Frostbite',
  skinIndex: 12,
  direction,
  threshold,
  channelId: undefined,
  status: 'armed',
});
const limits = { used: 1, max: 10, of: 'user' } as const;
const already = (payload: ReturnType<typeof renderAlertAdded>) =>
  embedOf(payload).fields?.find((f) => f.name === 'Already there')?.value;

describe('an alert just added', () => {
  it('says the price is already past the threshold, and that it fires at the next checks', () => {
    const above = renderAlertAdded(translators.en, alert('above', 100), 104, limits);
    expectSafe(above);
    expect(already(above)).toBe(
      'The lowest price is already 104 KR, at or above your 100 KR: the alert fires at the next checks if the price stays there (two checks in a row must see it).',
    );
    const below = renderAlertAdded(translators.en, alert('below', 100), 100, limits);
    expect(already(below)).toContain('already 100 KR, at or below your 100 KR');
    for (const t of Object.values(translators)) {
      const payload = renderAlertAdded(t, alert('above', 100), 104, limits);
      expectSafe(payload);
      expect(embedOf(payload).fields).toHaveLength(3);
    }
  });

  it('says nothing of it while the price is on the other side, or unknown', () => {
    expect(already(renderAlertAdded(translators.en, alert('above', 100), 99, limits))).toBeUndefined();
    expect(already(renderAlertAdded(translators.en, alert('below', 100), 101, limits))).toBeUndefined();
    expect(
      embedOf(renderAlertAdded(translators.en, alert('below', 100), undefined, limits)).fields,
    ).toHaveLength(2);
  });
});

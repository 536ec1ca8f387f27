import { describe, expect, it } from 'vitest';
import { OncePerPeriod } from '../../src/core/once-per.ts';

describe('OncePerPeriod', () => {
  it('is new once per key and period, forgets on request, and forgets the oldest key past its size', () => {
    const memo = new OncePerPeriod<string>(2);
    expect(memo.mark('a', 1)).toBe(true);
    expect(memo.mark('a', 1)).toBe(false);
    expect(memo.mark('a', 2)).toBe(true);
    memo.forget('a');
    expect(memo.mark('a', 2)).toBe(true);
    expect(memo.mark('b', 2)).toBe(true);
    // A third key pushes out the key marked longest ago ('a'), not the last one marked.
    expect(memo.mark('c', 2)).toBe(true);
    expect(memo.mark('b', 2)).toBe(false);
    expect(memo.mark('a', 2)).toBe(true);
  });
});

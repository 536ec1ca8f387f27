import { describe, expect, it } from 'vitest';
import { heavyTurn } from '../../src/api/turns.ts';

describe('heavyTurn', () => {
  it('gives each caller a turn of the event loop of its own, in order, with the loop running between', async () => {
    const order: string[] = [];
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      ticks += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: number[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map(async (name) => {
        await heavyTurn();
        order.push(name);
        seen.push(ticks);
      }),
    );
    ticking = false;
    expect(order).toEqual(['a', 'b', 'c']);
    // Between two heavy steps the loop went round at least once (another immediate ran).
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(1);
    expect(seen[2]! - seen[1]!).toBeGreaterThanOrEqual(1);
  });
});

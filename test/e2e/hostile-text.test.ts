import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/secrets.ts';

/**
 * Issue 8's critical finding, end to end: `/link name` with `$t(` and letters froze the event loop for
 * seconds (doubling with each letter), so every other user's command went unanswered. The text must come
 * back verbatim (it was never read as a template) while another user's command is answered.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => h.close());

const description = (message: { embeds: Array<{ description?: string }> }) =>
  message.embeds[0]?.description ?? '';

describe('a crafted name through /link name', () => {
  it('is shown as typed, and another user is answered meanwhile with no stall of the loop', async () => {
    const crafted = `$t(${'a'.repeat(60)}`;
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    const [refused, other] = await Promise.all([
      h.command('link', 'name', { player: crafted }, { userId: '320000000000000101' }).final(),
      h
        .command(
          'player',
          'profile',
          { name: h.sandbox.world.samples.player },
          { userId: '320000000000000102' },
        )
        .final(),
    ]);
    histogram.disable();

    expect(description(refused)).toContain(`No player named \`${crafted}\`.`);
    expect(JSON.stringify(other.embeds)).toContain(h.sandbox.world.samples.player);
    // Before the fix this name alone stalled the loop for far longer than the test may run; two seconds
    // is a bound that no load on a healthy machine reaches.
    expect(histogram.max / 1e6).toBeLessThan(2_000);
  });
});

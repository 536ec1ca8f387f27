import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack.ts';

/**
 * `/market skin` through the real bot, the Discord stand-in and the sandbox (`/market overview` and the
 * listings pages have files of their own: market-overview, market-inventory).
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['market'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe('/market skin', () => {
  it('shows a skin’s market by its index, with the price history chart', async () => {
    const skinIndex = stack.sandbox.world.samples.skinIndex;
    const market = stack.sandbox.world.market[skinIndex]!;
    const reply = await stack.invoke('market', 'skin', { skin: skinIndex }).final(20_000);
    expect(reply.embeds[0]?.title).toMatch(new RegExp(`\\(#${skinIndex}\\)$`));
    const fields = Object.fromEntries((reply.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Active listings']).toContain(String(market.listings.length));
    expect(reply.attachments[0]?.bytes.subarray(0, 4)).toEqual(PNG);
  });

  it('refuses days out of range before asking the game, and names a skin that does not exist', async () => {
    const before = stack.sandbox.requests.count(/items|market/);
    const days = await stack.invoke('market', 'skin', { skin: 1, days: 500 }).final();
    expect(days.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(days.embeds[0]?.description).toBe('Days must be a whole number from 1 to 120.');
    expect(stack.sandbox.requests.count(/items|market/)).toBe(before);

    const missing = await stack.invoke('market', 'skin', { skin: 999_999 }).final(20_000);
    expect(missing.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(missing.embeds[0]?.description).toBe('There is no skin with index 999999.');
  });
});

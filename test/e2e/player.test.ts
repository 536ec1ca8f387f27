import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkMessageLimits } from '../../src/render/text.ts';
import { startTestStack, type Stack } from '../support/stack.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startTestStack({ commands: ['player'] });
}, 60_000);

afterAll(async () => {
  await stack.stop();
});

describe('/player end to end', () => {
  it('answers /player profile with an embed and a section menu', async () => {
    const name = stack.sandbox.world.samples.player;
    const pending = stack.invoke('player', 'profile', { name });
    const message = await pending.final();
    expect(message.embeds[0]?.title).toContain(name);
    expect(checkMessageLimits({ content: message.content, embeds: message.embeds })).toEqual([]);
    expect(message.allowedMentions).toEqual({ parse: [] });
    const menu = message.components[0] as { components: Array<{ custom_id: string }> };
    const switched = stack.discord.selectMenu(message, menu.components[0]!.custom_id, ['ranked']);
    const ranked = await switched.final();
    expect(ranked.embeds[0]?.footer?.text).toContain('Ranked');
  });
});

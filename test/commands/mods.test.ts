import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeMarkdown } from '../../src/render/text.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';

/** `/mods` through the real bot, the Discord stand-in and the sandbox. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ commands: ['mods'], announcements: false });
}, 60_000);
afterAll(async () => stack.stop());

const EPHEMERAL = 64;

describe('/mods', () => {
  it('lists mods by votes and shows one mod', async () => {
    const world = stack.sandbox.world;
    const list = await stack.invoke('mods', 'list', {}).final();
    expect(list.embeds[0]?.title).toBe('Mods by votes');
    expect((list.embeds[0]?.description ?? '').split('\n')[0]).toMatch(/^\*\*1\.\*\* /);

    const mod = world.mods.find((m) => m.name === world.samples.mod)!;
    const info = await stack.invoke('mods', 'info', { name: mod.name }).final();
    expect(info.embeds[0]?.title).toContain(mod.name);
    const fields = Object.fromEntries((info.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Creator']).toContain(escapeMarkdown(mod.creatorName));
  });

  it('says, privately, that a deleted mod is not found', async () => {
    const deleted = stack.sandbox.world.samples.deletedMod;
    const reply = await stack.invoke('mods', 'info', { name: deleted }).final();
    expect(reply.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.embeds[0]?.description).toContain('No mod named');
  });
});

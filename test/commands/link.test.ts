import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks } from '../../src/players/accounts.ts';
import { MAX_CHECKS_PER_CODE } from '../../src/features/links/verification.ts';
import { startHarness, type Harness } from '../support/secrets.ts';

/** `/link` and `/unlink` through the real bot, the Discord stand-in and the sandbox. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => h.close());

const description = (message: { embeds: Array<{ description?: string }> }) =>
  message.embeds[0]?.description ?? '';
const codeIn = (text: string) => /KF-[A-Z0-9]{6}/.exec(text)?.[0];

describe('/link', () => {
  it('refuses a player that does not exist, and a verify with nothing started', async () => {
    const user = { userId: '320000000000000001' };
    const missing = await h.command('link', 'name', { player: 'NoSuchPlayer_123' }, user).final();
    expect(description(missing)).toContain('No player named `NoSuchPlayer_123`.');
    const verify = await h.command('link', 'verify', {}, user).final();
    expect(description(verify)).toContain('no linking under way');
    expect(verify.flags & 64).toBe(64);
  });

  it('starts linking the player whose name differs from the one typed only in case', async () => {
    const user = { userId: '320000000000000009' };
    const player = h.sandbox.world.samples.verifiedPlayer;
    const started = await h.command('link', 'name', { player: player.toLowerCase() }, user).final();
    expect(started.embeds[0]?.title).toBe(`Linking to ${player}`);
  });

  it('links once the code is posted, and the link becomes the default name', async () => {
    const user = { userId: '320000000000000002' };
    const player = h.sandbox.world.samples.player;
    const started = await h.command('link', 'name', { player: ` ${player} ` }, user).final();
    expect(started.flags & 64).toBe(64);
    expect(started.embeds[0]?.title).toBe(`Linking to ${player}`);
    const code = codeIn(description(started))!;
    h.post(player, `code ${code.toLowerCase()}`);
    const linked = await h.command('link', 'verify', {}, user).final();
    expect(linked.embeds[0]?.title).toBe('Account linked');
    expect(await accountLinks(h.bot.services).get(user.userId)).toMatchObject({ playerName: player });

    const posts = await h.command('player', 'posts', {}, user).final();
    expect(JSON.stringify(posts.embeds)).toContain(player);
    const again = await h.command('link', 'verify', {}, user).final();
    expect(description(again)).toContain('no linking under way');

    const unlinked = await h.command('unlink', undefined, {}, user).final();
    expect(description(unlinked)).toBe(`You are no longer linked to **${player}**.`);
    expect(await accountLinks(h.bot.services).get(user.userId)).toBeUndefined();
    const nameless = await h.command('player', 'profile', {}, user).final();
    expect(description(nameless)).toContain('link your account');
  });

  it('allows a limited number of checks, then asks for a new code', async () => {
    const user = { userId: '320000000000000003' };
    const player = h.sandbox.world.samples.verifiedPlayer;
    await h.command('link', 'name', { player }, user).final();
    for (let n = 1; n <= MAX_CHECKS_PER_CODE; n += 1) {
      const miss = await h.command('link', 'verify', {}, user).final();
      expect(miss.embeds[0]?.title).toBe('Code not found yet');
      if (n === MAX_CHECKS_PER_CODE) expect(description(miss)).toContain('That was the last check');
    }
    const over = await h.command('link', 'verify', {}, user).final();
    expect(description(over)).toContain('no checks left');
    const none = await h.command('link', 'verify', {}, user).final();
    expect(description(none)).toContain('no linking under way');
    expect(await accountLinks(h.bot.services).get(user.userId)).toBeUndefined();
  });

  it('does not link on a code of someone else', async () => {
    const a = { userId: '320000000000000004' };
    const b = { userId: '320000000000000005' };
    const player = h.sandbox.world.samples.kpdPlayer;
    const codeA = codeIn(description(await h.command('link', 'name', { player }, a).final()))!;
    await h.command('link', 'name', { player }, b).final();
    h.post(player, codeA);
    expect((await h.command('link', 'verify', {}, b).final()).embeds[0]?.title).toBe('Code not found yet');
    expect((await h.command('link', 'verify', {}, a).final()).embeds[0]?.title).toBe('Account linked');
  });

  it('/unlink cancels a verification under way, and says when there was nothing', async () => {
    const user = { userId: '320000000000000006' };
    await h.command('link', 'name', { player: h.sandbox.world.samples.player }, user).final();
    expect(description(await h.command('unlink', undefined, {}, user).final())).toBe(
      'Your linking under way was cancelled.',
    );
    expect(description(await h.command('unlink', undefined, {}, user).final())).toBe(
      'Your Discord account is not linked to a game account.',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { accessTokenMemory, TOKEN_KEEP_MS } from '../../../src/features/tokens/token-memory.ts';
import { capturedLog, useWorldPerTest } from '../../support/announcements.ts';
import {
  bearerCalls,
  buttonLabelled,
  buttons,
  invokeMe,
  modalOf,
  OTHER_USER,
  throughModal,
  USER,
} from '../../support/tokens.ts';

/**
 * `/me` remembering the access token when, and only when, the player opts in: in the process's memory,
 * for that Discord user, until the earlier of its expiry and 15 minutes (manual clock), dropped by the
 * Forget button, `/me forget` and a restart.
 */
const fixture = useWorldPerTest();
const EPHEMERAL = 64;

function tokenFor(expiresInSec?: number): string {
  const { sandbox } = fixture.world;
  return sandbox.issueToken({
    playerName: sandbox.world.samples.rankedPlayer,
    ...(expiresInSec === undefined ? {} : { expiresInSec }),
  });
}

/** What `/me sub` answers first: 9 a modal (the token is asked for), 5 a deferred reply (it is kept). */
async function firstResponse(sub: string, userId = USER): Promise<number> {
  const pending = invokeMe(fixture.world, sub, {}, { userId });
  const type = (await pending.response()).type;
  if (type !== 9) await pending.final();
  return type;
}

describe('the modal', () => {
  it('asks for the token and offers to remember it, "no" chosen by default', async () => {
    await fixture.start({ commands: true });
    const { data } = await modalOf(invokeMe(fixture.world, 'wallet'));
    const [token, remember] = (data as { components: Array<{ label: string; component: unknown }> })
      .components;
    expect(token?.component).toMatchObject({ custom_id: 'secret', type: 4 });
    expect(remember?.label).toBe('Remember it for 15 minutes?');
    expect(remember?.component).toMatchObject({
      type: 3,
      custom_id: 'remember',
      options: [
        { value: 'no', default: true },
        { value: 'yes', label: 'Yes, for 15 minutes (less if it expires sooner)' },
      ],
    });
  });
});

describe('opting out', () => {
  it('keeps nothing: no note, no Forget button, the next /me asks again', async () => {
    const process = await fixture.start({ commands: true });
    for (const remember of [undefined, 'no'] as const) {
      const reply = await throughModal(fixture.world, 'wallet', tokenFor(), remember);
      expect(reply.embeds[0]?.title).toBe('Your wallet');
      expect(reply.content).toBe('');
      expect(buttons(reply)).toEqual([]);
      expect(accessTokenMemory(process.services).size).toBe(0);
      expect(await firstResponse('wallet')).toBe(9);
    }
  });
});

describe('opting in', () => {
  it('answers later /me calls without asking, for that user only, and says until when', async () => {
    await fixture.start({ commands: true });
    const { world } = fixture;
    const first = await throughModal(world, 'wallet', tokenFor(), 'yes');
    expect(first.flags & EPHEMERAL).toBe(EPHEMERAL);
    const until = Math.floor((world.clock.now() + TOKEN_KEEP_MS) / 1000);
    expect(first.content).toBe(`🔑 Your access token is kept in memory and forgotten <t:${until}:R>.`);
    expect(buttonLabelled(first, 'Forget my token').style).toBe(4);

    const before = bearerCalls(world);
    const pending = invokeMe(world, 'listings');
    expect((await pending.response()).type).toBe(5);
    const second = await pending.final();
    expect(second.embeds[0]?.title).toBe('Your open listings');
    expect(second.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(buttonLabelled(second, 'Forget my token')).toBeDefined();
    expect(bearerCalls(world)).toBe(before + 1);

    // Another Discord user is asked for their own.
    expect(await firstResponse('wallet', OTHER_USER)).toBe(9);
  });

  it('drops the token after 15 minutes of the services clock', async () => {
    const process = await fixture.start({ commands: true });
    const { world } = fixture;
    await throughModal(world, 'wallet', tokenFor(), 'yes');
    await world.clock.advance(TOKEN_KEEP_MS - 1_000);
    expect(await firstResponse('wallet')).toBe(5);
    await world.clock.advance(1_000);
    expect(await firstResponse('wallet')).toBe(9);
    expect(accessTokenMemory(process.services).size).toBe(0);
  });

  it("drops it at the token's own expiry when that comes first", async () => {
    const process = await fixture.start({ commands: true });
    const { world } = fixture;
    const reply = await throughModal(world, 'wallet', tokenFor(5 * 60), 'yes');
    const until = Math.floor(world.clock.now() / 1000) + 5 * 60;
    expect(reply.content).toContain(`<t:${until}:R>`);
    await world.clock.advance(5 * 60_000 - 1_000);
    expect(await firstResponse('wallet')).toBe(5);
    await world.clock.advance(1_000);
    // Swept without anyone asking.
    expect(accessTokenMemory(process.services).sweep()).toBe(1);
    expect(accessTokenMemory(process.services).size).toBe(0);
    expect(await firstResponse('wallet')).toBe(9);
  });

  it('drops a kept token the game refuses, and says so', async () => {
    const process = await fixture.start({ commands: true });
    const { world } = fixture;
    await throughModal(world, 'wallet', tokenFor(), 'yes');
    world.sandbox.faults.inject({ match: /\/wallet$/, kind: 'status', status: 401, times: 1 });
    const refused = await invokeMe(world, 'wallet').final();
    expect(refused.embeds[0]?.description).toContain('refused the access token');
    expect(accessTokenMemory(process.services).size).toBe(0);
    expect(await firstResponse('wallet')).toBe(9);
  });
});

describe('forgetting', () => {
  it('the Forget button drops the token at once and takes itself off the reply', async () => {
    const process = await fixture.start({ commands: true });
    const { world } = fixture;
    const reply = await throughModal(world, 'wallet', tokenFor(), 'yes');
    const forget = buttonLabelled(reply, 'Forget my token');
    const updated = await world.discord.clickButton(reply, forget.custom_id, { user: { id: USER } }).final();
    expect(updated.id).toBe(reply.id);
    expect(updated.embeds[0]?.title).toBe('Your wallet');
    expect(updated.content).toBe('🔒 Your access token was forgotten. /me will ask for it again.');
    expect(buttons(updated)).toEqual([]);
    expect(accessTokenMemory(process.services).size).toBe(0);
    expect(await firstResponse('wallet')).toBe(9);
  });

  it('/me forget drops it, and says when there was nothing to forget', async () => {
    const process = await fixture.start({ commands: true });
    const { world } = fixture;
    await throughModal(world, 'wallet', tokenFor(), 'yes');
    const forgotten = await invokeMe(world, 'forget').final();
    expect(forgotten.embeds[0]?.title).toBe('Token forgotten');
    expect(forgotten.flags & EPHEMERAL).toBe(EPHEMERAL);
    expect(accessTokenMemory(process.services).size).toBe(0);
    expect(await firstResponse('wallet')).toBe(9);
    const again = await invokeMe(world, 'forget').final();
    expect(again.embeds[0]?.title).toBe('Nothing to forget');
  });

  it("/me forget by another user leaves this user's token kept", async () => {
    const process = await fixture.start({ commands: true });
    const { world } = fixture;
    await throughModal(world, 'wallet', tokenFor(), 'yes');
    const other = await invokeMe(world, 'forget', {}, { userId: OTHER_USER }).final();
    expect(other.embeds[0]?.title).toBe('Nothing to forget');
    expect(accessTokenMemory(process.services).size).toBe(1);
  });
});

describe('a restart', () => {
  it('keeps nothing: the new process asks for the token again', async () => {
    const first = await fixture.start({ commands: true });
    const { world } = fixture;
    await throughModal(world, 'wallet', tokenFor(), 'yes');
    expect(await firstResponse('wallet')).toBe(5);
    await first.stop();
    const second = await fixture.start({ commands: true });
    expect(accessTokenMemory(second.services).size).toBe(0);
    expect(await firstResponse('wallet')).toBe(9);
  });
});

describe('logs', () => {
  it('never carry the kept token, through every path that uses or drops it', async () => {
    const { log, lines } = capturedLog();
    await fixture.start({ commands: true, log });
    const { world } = fixture;
    const token = tokenFor();
    const reply = await throughModal(world, 'matches', token, 'yes');
    await invokeMe(world, 'trades').final();
    const next = buttonLabelled(reply, 'Next ▶');
    await world.discord.clickButton(reply, next.custom_id, { user: { id: USER } }).final();
    world.sandbox.faults.inject({ match: /\/wallet$/, kind: 'status', status: 403, times: 1 });
    const refused = await invokeMe(world, 'wallet').final();
    expect(refused.embeds[0]?.description).toContain('lacks the role');
    await invokeMe(world, 'forget').final();
    const text = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThan(0);
    const payload = token.split('.')[1]!;
    for (let at = 0; at + 12 <= payload.length; at += 9)
      expect(text).not.toContain(payload.slice(at, at + 12));
    expect(text).not.toContain(token.split('.')[2]!.slice(0, 24));
  });
});

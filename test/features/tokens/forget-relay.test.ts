import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  accessTokenMemory,
  forgetKeptTokens,
  relayTokenForgets,
} from '../../../src/features/tokens/token-memory.ts';
import { isForget, shareForgets } from '../../../src/processes/ipc.ts';
import { ManualClock } from '../../support/clock.ts';
import { makeJwt } from '../../support/jwt.ts';

const TOKEN = makeJwt({ alg: 'RS256' }, { sub: '42', exp: 4_000_000_000 });
const USER = '123456789012345678';

/** The child's end of an IPC channel: what it sent, and a way to deliver the manager's messages. */
function channel() {
  const emitter = new EventEmitter();
  const sent: unknown[] = [];
  return {
    sent,
    deliver: (message: unknown) => emitter.emit('message', message),
    on: (event: 'message', listener: (message: unknown) => void) => emitter.on(event, listener),
    off: (event: 'message', listener: (message: unknown) => void) => emitter.off(event, listener),
    send: (message: unknown) => sent.push(message) > 0,
    connected: true,
  };
}

afterEach(() => relayTokenForgets(undefined));

describe('/me forget across shard processes', () => {
  it('tells the manager when a user asks to be forgotten here, with the user id only', () => {
    const ipc = channel();
    const sharing = shareForgets(forgetKeptTokens, ipc);
    relayTokenForgets((userId) => sharing.announce(userId));
    const memory = accessTokenMemory({ clock: new ManualClock() });
    memory.remember(USER, TOKEN, undefined);
    expect(memory.forget(USER)).toBe(true);
    expect(ipc.sent).toEqual([{ killfeed: 'forget-token', userId: USER }]);
    expect(JSON.stringify(ipc.sent)).not.toContain(TOKEN);
    sharing.stop();
  });

  it("drops the token this process keeps when the manager relays another shard's forget", () => {
    const ipc = channel();
    const sharing = shareForgets(forgetKeptTokens, ipc);
    // Two bots' services in one process (as in tests): both memories drop it.
    const first = accessTokenMemory({ clock: new ManualClock() });
    const second = accessTokenMemory({ clock: new ManualClock() });
    first.remember(USER, TOKEN, undefined);
    second.remember(USER, TOKEN, undefined);
    first.remember('223456789012345678', TOKEN, undefined);
    ipc.deliver({ killfeed: 'forget-token', userId: USER });
    expect(first.get(USER)).toBeUndefined();
    expect(second.get(USER)).toBeUndefined();
    expect(first.get('223456789012345678')).toBeDefined();
    // Anything else on the channel (discord.js's own messages, a malformed id) drops nothing.
    ipc.deliver({ _eval: 'x' });
    ipc.deliver({ killfeed: 'forget-token', userId: '../all' });
    expect(first.get('223456789012345678')).toBeDefined();
    sharing.stop();
    ipc.deliver({ killfeed: 'forget-token', userId: '223456789012345678' });
    expect(first.get('223456789012345678')).toBeDefined();
  });

  it('accepts only a forget naming one user id', () => {
    expect(isForget({ killfeed: 'forget-token', userId: USER })).toBe(true);
    expect(isForget({ killfeed: 'forget-token', userId: 42 })).toBe(false);
    expect(isForget({ killfeed: 'forget-token' })).toBe(false);
    expect(isForget(null)).toBe(false);
  });
});

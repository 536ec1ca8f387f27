import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { limitedRestOptions } from '../../src/discord/rest-agent.ts';
import { asBackground, DiscordGlobalLimit } from '../../src/traffic/discord-global.ts';
import { createMemoryLimits, type SharedLimits } from '../../src/traffic/index.ts';
import { ManualClock } from '../support/clock.ts';

/**
 * The global limiter in front of discord.js's REST: requests with the bot's token take a slot (as
 * commands, or as background inside `asBackground`); interaction callbacks and webhook-token requests,
 * which Discord does not count, go straight out; discord.js's own per-process counter is off.
 */
let clock: ManualClock;
let limits: SharedLimits;

beforeEach(() => {
  clock = new ManualClock();
  limits = createMemoryLimits(clock);
});

afterEach(async () => {
  await limits.close();
});

/** The options over a sender that answers at once, or after `answerAfterMs` for the URLs it names. */
function options(perSecond: number, answerAfterMs: Record<string, number> = {}) {
  const sent: Array<{ url: string; at: number }> = [];
  const limit = new DiscordGlobalLimit(limits, 'token', clock, { perSecond, marginMs: 0 });
  const rest = limitedRestOptions(limit, 'interactive', async (url) => {
    sent.push({ url, at: clock.now() });
    await clock.sleep(answerAfterMs[url] ?? 0);
    return new Response('{}');
  });
  return { rest, sent };
}

const withToken = { method: 'POST', headers: { Authorization: 'Bot x' } };

describe('the REST options in front of discord.js', () => {
  it("turns discord.js's own global counter off", () => {
    expect(options(50).rest.globalRequestsPerSecond).toBe(Number.POSITIVE_INFINITY);
  });

  it('counts requests with the token and lets interaction callbacks through at once', async () => {
    const { rest, sent } = options(1);
    await clock.settle(rest.makeRequest('https://d/api/v10/users/@me', withToken));
    const start = clock.now();
    // The window is full for a second: a callback (no token) goes at once, a second counted request waits.
    const counted = rest.makeRequest('https://d/api/v10/channels/1/messages', withToken);
    await clock.settle(rest.makeRequest('https://d/api/v10/interactions/1/tok/callback', { method: 'POST' }));
    expect(sent.map((s) => s.url.split('/v10')[1])).toEqual(['/users/@me', '/interactions/1/tok/callback']);
    expect(clock.now()).toBe(start);
    await clock.settle(counted);
    expect(sent.at(-1)).toEqual({ url: 'https://d/api/v10/channels/1/messages', at: start + 1_000 });
  });

  it('counts a request until a second after its answer came, when it came late', async () => {
    const slow = 'https://d/api/v10/channels/1/messages';
    const { rest, sent } = options(1, { [slow]: 300 });
    const start = clock.now();
    const first = rest.makeRequest(slow, withToken);
    const next = rest.makeRequest('https://d/api/v10/channels/2/messages', withToken);
    await clock.settle(Promise.all([first, next]));
    // The first answer came 300 ms after it was sent: it may have reached Discord as late as that.
    expect(sent.at(-1)).toEqual({ url: 'https://d/api/v10/channels/2/messages', at: start + 1_300 });
  });

  it('sends a waiting command before background requests that waited longer', async () => {
    const { rest, sent } = options(1);
    await clock.settle(rest.makeRequest('https://d/api/v10/first', withToken));
    const background = asBackground(() =>
      Promise.all([
        rest.makeRequest('https://d/api/v10/b1', withToken),
        rest.makeRequest('https://d/api/v10/b2', withToken),
      ]),
    );
    await clock.advance(100);
    const command = rest.makeRequest('https://d/api/v10/command', withToken);
    await clock.settle(Promise.all([background, command]));
    expect(sent.map((s) => s.url.split('/v10/')[1])).toEqual(['first', 'command', 'b1', 'b2']);
  });
});

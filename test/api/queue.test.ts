import { afterEach, describe, expect, it } from 'vitest';
import { TierClient } from '../../src/api/client.ts';
import { SlotRefusedError } from '../../src/api/slot.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { flush, ManualClock } from '../support/clock.ts';

/**
 * A command's call through the tier client while the key's window is full: the sandbox and the client
 * count on one manual clock, one request a minute. A queued request starts only with the route's whole
 * timeout (8 s) left before its deadline, and a cached answer does not wait behind the queue.
 */
const owner = { guild: 'g', user: 'u' };
let sandbox: Sandbox | undefined;
let client: TierClient | undefined;

afterEach(async () => {
  await client?.close();
  await sandbox?.close();
  client = undefined;
  sandbox = undefined;
});

async function setup(clock: ManualClock) {
  sandbox = await startSandbox({ rateLimit: { limit: 1, windowMs: 60_000 }, now: () => clock.now() });
  client = new TierClient({
    urls: sandbox.urls,
    apiKey: sandbox.keys.default,
    clock,
    generalLimit: { limit: 1, windowMs: 60_000 },
  });
  return { sandbox, client, names: sandbox.world.players.slice(0, 3).map((player) => player.name) };
}

describe('TierClient: a command in the queue', () => {
  it('never starts a request with less than its timeout left, and a cached answer skips the queue', async () => {
    const clock = new ManualClock();
    const { sandbox, client, names } = await setup(clock);
    const [first = '', late = '', inTime = ''] = names;
    const queue = { owner };
    await client.api.player({ playerName: first }, { queue, deadlineMs: 15 * 60_000 });

    // The next slot is at +60 s: with 67.999 s to its deadline the request would have 7.999 s, too little.
    const refused = await client.api
      .player({ playerName: late }, { queue, deadlineMs: 67_999 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SlotRefusedError);
    expect(refused).toMatchObject({ queued: true, retryAfterMs: 1 });

    let answered = false;
    const waiting = client.api.player({ playerName: inTime }, { queue, deadlineMs: 68_000 }).then((reply) => {
      answered = true;
      return reply;
    });
    await flush();
    // The first answer is cached: asked again, it comes while the other still waits for its slot.
    const again = await client.api.player({ playerName: first }, { queue, deadlineMs: 15 * 60_000 });
    expect(again.player_name).toBe(first);
    expect(answered).toBe(false);

    await clock.advance(60_000);
    expect((await waiting).player_name).toBe(inTime);
    const statuses = sandbox.requests.entries().map((entry) => entry.status);
    expect(statuses).toEqual([200, 200]);
  });
});

import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { deliveryNonce } from '../../src/announcements/delivery.ts';
import { signPayload } from '../../src/announcements/webhook.ts';
import type { CommunityMap } from '../../src/dev/sandbox/index.ts';
import { drive, posted, subscribeDirectly, useWorldPerTest, type Process } from '../support/announcements.ts';

/** Delivery to Discord: dead channels, transient failures, and webhook events meeting polled ones. */
const fixture = useWorldPerTest();
const start = fixture.start;

function unfeaturedMaps(): CommunityMap[] {
  return fixture.world.sandbox.world.maps.filter((map) => map.hidden === null && !map.featured);
}

async function feature(map: CommunityMap) {
  await fixture.world.clock.advance(1_000);
  return fixture.world.sandbox.events.publish('map.featured', map.id);
}

function messageRequests(channelId: string) {
  return fixture.world.discord.requests().filter((r) => r.path === `/channels/${channelId}/messages`);
}

describe('dead channels', () => {
  const cases = [
    { code: 10003, status: 404, reason: 'unknownChannel' },
    { code: 50001, status: 403, reason: 'missingAccess' },
    { code: 50013, status: 403, reason: 'missingPermissions' },
  ] as const;
  for (const { code, status, reason } of cases) {
    it(`${code} disables the subscription on the first attempt and costs no further request`, async () => {
      const dead = fixture.world.addChannel('dead');
      const subscription = await subscribeDirectly(fixture.world, { kind: 'maps', channelId: dead });
      await subscribeDirectly(fixture.world, { kind: 'maps' });
      fixture.world.discord.failChannel(dead, { status, code });
      const process = await start();
      await drive(fixture.world.clock, process.announcements.pollOnce());
      const maps = unfeaturedMaps();
      await feature(maps[0]!);
      await feature(maps[1]!);
      await drive(fixture.world.clock, process.announcements.pollOnce());
      await feature(maps[2]!);
      await drive(fixture.world.clock, process.announcements.pollOnce());

      expect(messageRequests(dead)).toHaveLength(1);
      expect(messageRequests(dead)[0]?.code).toBe(code);
      const stored = await fixture.world.repos.subscriptions.get(subscription.id);
      expect(stored?.state).toMatchObject({ status: 'disabled', reason, code });
      // The healthy channel got everything.
      expect(posted(fixture.world)).toHaveLength(3);
    });
  }
});

describe('pacing', () => {
  it('spaces the posts of a fan-out at the rate asked, in clock time', async () => {
    const channels = [
      fixture.world.channelId,
      ...['b', 'c', 'd'].map((name) => fixture.world.addChannel(name)),
    ];
    for (const channelId of channels) await subscribeDirectly(fixture.world, { kind: 'maps', channelId });
    const process = await start({ discordLimit: { perSecond: 2 } });
    await drive(fixture.world.clock, process.announcements.pollOnce());
    await feature(unfeaturedMaps()[0]!);
    const before = fixture.world.clock.now();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    for (const channelId of channels) expect(posted(fixture.world, channelId)).toHaveLength(1);
    // Four posts at two a second: three gaps of half a second, waited on the manual clock.
    expect(fixture.world.clock.now() - before).toBeGreaterThanOrEqual(1_500);
  });

  it("uses the whole of Discord's 50 a second when no command asks: 100 posts in 2 s of clock", async () => {
    const channels = [
      fixture.world.channelId,
      ...Array.from({ length: 99 }, (_, i) => fixture.world.addChannel(`c${i}`)),
    ];
    for (const channelId of channels) await subscribeDirectly(fixture.world, { kind: 'maps', channelId });
    const process = await start({ discordLimit: { perSecond: 50 } });
    await drive(fixture.world.clock, process.announcements.pollOnce());
    await feature(unfeaturedMaps()[0]!);
    const before = fixture.world.clock.now();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    for (const channelId of channels) expect(posted(fixture.world, channelId)).toHaveLength(1);
    // The 100th post goes 99 spacings of 20 ms after the first, plus the window's 5 ms margin once: not
    // the 2.1 s of a fixed 47 a second, and never faster than 50.
    const elapsed = fixture.world.clock.now() - before;
    expect(elapsed).toBeGreaterThanOrEqual(99 * 20);
    expect(elapsed).toBeLessThanOrEqual(2_000 * 1.01);
  });
});

describe('transient failures', () => {
  it('retries 5xx and connection resets with backoff, a bounded number of times, posting once', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await start();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    // discord.js retries a 5xx three times itself; five failures make our own backoff step in once.
    fixture.world.discord.failNext({ method: 'POST', path: /^\/channels\/\d+\/messages$/ }, 502, 5);
    await feature(unfeaturedMaps()[0]!);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(posted(fixture.world)).toHaveLength(1);
    expect(messageRequests(fixture.world.channelId).filter((r) => r.status === 502)).toHaveLength(5);
    fixture.world.discord.failNext({ method: 'POST', path: /^\/channels\/\d+\/messages$/ }, 0, 1);
    await feature(unfeaturedMaps()[1]!);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(posted(fixture.world)).toHaveLength(2);
  });

  it('gives up after the bounded attempts and passes, recording the failure, without disabling', async () => {
    const subscription = await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await start({
      announcements: { delivery: { attempts: 2, maxPasses: 2, backoffMs: 1, claimTtlMs: 200 } },
    });
    await drive(fixture.world.clock, process.announcements.pollOnce());
    fixture.world.discord.failNext({ method: 'POST', path: /^\/channels\/\d+\/messages$/ }, 500, 1_000);
    const event = await feature(unfeaturedMaps()[0]!);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect((await fixture.world.repos.inbox.pending()).map((p) => p.attempts)).toEqual([1]);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(await fixture.world.repos.inbox.pending()).toEqual([]);
    expect(await fixture.world.repos.deliveries.get(`${subscription.id}:e:${event.id}`)).toMatchObject({
      outcome: 'failed',
    });
    expect((await fixture.world.repos.subscriptions.get(subscription.id))?.state.status).toBe('active');
    // 2 passes x 2 attempts x (1 + discord.js's 3 retries).
    expect(messageRequests(fixture.world.channelId)).toHaveLength(16);
  });
});

describe('nonce', () => {
  it('is at most 25 characters, stable per event and channel, different across either', () => {
    const nonce = deliveryNonce('e:123456789', '123456789012345678');
    expect(nonce.length).toBeLessThanOrEqual(25);
    expect(deliveryNonce('e:123456789', '123456789012345678')).toBe(nonce);
    expect(deliveryNonce('e:123456790', '123456789012345678')).not.toBe(nonce);
    expect(deliveryNonce('e:123456789', '123456789012345679')).not.toBe(nonce);
  });
});

describe('webhook and polling together', () => {
  const secret = 'webhook-secret-for-tests';
  const service = 'Krunker';

  async function withWebhook(): Promise<Process> {
    const config = {
      ...fixture.world.config,
      webhook: { port: 0, secret, service, path: '/webhook', toleranceSeconds: 300 },
    };
    return start({ config, announcements: { webhookHost: '127.0.0.1' } });
  }

  function push(process: Process, body: unknown, eventId?: number): Promise<number> {
    const raw = JSON.stringify(body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      [`${service}-Signature`]: signPayload(secret, Math.floor(fixture.world.clock.now() / 1000), raw),
      ...(eventId === undefined ? {} : { [`${service}-Event-Id`]: String(eventId) }),
    };
    return new Promise((resolve, reject) => {
      const req = request(process.announcements.webhook!.url, { method: 'POST', headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(raw);
    });
  }

  async function settle(process: Process) {
    await process.announcements.flush();
  }

  it('announces an event pushed, then polled, once', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await withWebhook();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const event = await feature(unfeaturedMaps()[0]!);
    expect(await push(process, event, event.id)).toBe(200);
    await settle(process);
    expect(posted(fixture.world)).toHaveLength(1);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(posted(fixture.world)).toHaveLength(1);
  });

  it('gives a pushed featured map the votes, plays and creator a polled one has', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await withWebhook();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const map = unfeaturedMaps().find((m) => /^[A-Za-z0-9 ]+$/.test(m.name))!;
    const event = await feature(map);
    expect(await push(process, event, event.id)).toBe(200);
    await settle(process);
    const [post] = posted(fixture.world);
    const fields = Object.fromEntries((post?.embeds[0]?.fields ?? []).map((f) => [f.name, f.value]));
    expect(fields['Votes']).toBe(map.votes.toLocaleString('en-US'));
    expect(fields['Plays']).toBe(map.gameplays.toLocaleString('en-US'));
  });

  it('announces an event polled, then pushed (twice), once', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await withWebhook();
    await drive(fixture.world.clock, process.announcements.pollOnce());
    const event = await feature(unfeaturedMaps()[0]!);
    await drive(fixture.world.clock, process.announcements.pollOnce());
    expect(posted(fixture.world)).toHaveLength(1);
    expect(await push(process, event, event.id)).toBe(200);
    expect(await push(process, event, event.id)).toBe(200);
    await settle(process);
    expect(posted(fixture.world)).toHaveLength(1);
  });

  it('announces duplicate pushes of a new event once, and never a test delivery', async () => {
    await subscribeDirectly(fixture.world, { kind: 'maps' });
    const process = await withWebhook();
    const map = unfeaturedMaps()[0]!;
    await fixture.world.clock.advance(1_000);
    const body = {
      id: 99_999_001,
      type: 'map.featured',
      created_at: new Date(fixture.world.clock.now()).toISOString(),
      target: { type: 'map', id: map.id },
      data: { map_id: map.id, map_name: map.name, creator: map.creatorName },
    };
    const statuses = await Promise.all([
      push(process, body, body.id),
      push(process, body, body.id),
      push(process, body),
    ]);
    expect(statuses).toEqual([200, 200, 200]);
    expect(await push(process, { ...body, id: 0 }, 123)).toBe(200);
    await settle(process);
    expect(posted(fixture.world)).toHaveLength(1);
  });
});

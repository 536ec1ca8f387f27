import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Translations } from '../../src/i18n/index.ts';
import { configureLog } from '../../src/log/index.ts';
import type { MessageRecord, PendingInteraction } from '../../src/dev/standin/index.ts';
import { startTestStack, type TestStack } from '../support/stack.ts';
import { redisAvailable, startRedisServer, type RedisServer } from '../support/redis-server.ts';

/**
 * The real bot on a Redis store whose server is paused (it holds the connection and answers nothing) or
 * gone (the port refuses): every command still gets its first response within the Discord stand-in's
 * 3 s window and then a clear answer, `/healthz` says not ready meanwhile and ready again afterwards.
 */
const EPHEMERAL = 64;
const storeDown = new Translations().for('en-US').t('common:errors.storeDown');

describe.skipIf(!redisAvailable)('commands while the Redis store is down', () => {
  let redis: RedisServer;
  let stack: TestStack;

  beforeAll(async () => {
    // The lost connection is logged as warnings, expected here.
    configureLog('error');
    redis = await startRedisServer();
    stack = await startTestStack({
      storeUrl: redis.url,
      commands: ['player', 'link'],
      announcements: false,
      health: true,
    });
  }, 60_000);

  afterAll(async () => {
    redis.resume();
    await stack.stop();
    await redis.stop();
    configureLog('info');
  });

  const health = () => stack.health();
  const healthBecomes = (status: number) => stack.healthBecomes(status);

  /** A first response in the stand-in's 3 s window (it refuses later ones), then the final message. */
  async function answered(pending: PendingInteraction): Promise<MessageRecord> {
    const first = await pending.response(10_000);
    expect([4, 5]).toContain(first.type);
    return pending.final(20_000);
  }

  function isStoreDown(message: MessageRecord): boolean {
    return (message.flags & EPHEMERAL) === EPHEMERAL && JSON.stringify(message.embeds).includes(storeDown);
  }

  function expectDataOrStoreDown(message: MessageRecord, name: string): void {
    expect(JSON.stringify(message.embeds)).not.toContain('Something went wrong');
    if (!isStoreDown(message)) expect(JSON.stringify(message.embeds)).toContain(name);
  }

  // A link check reads its one-time code from the key-value store; linked accounts are in the database.
  const startLink = () => stack.invoke('link', 'verify', {});

  it('paused: commands are answered clearly, /healthz says not ready, then all recovers', async () => {
    expect((await health()).status).toBe(200);
    const player = stack.sandbox.world.samples.player;
    redis.pause();

    // At once: each waits for the store's operation timeout.
    const [started, named, unnamed] = await Promise.all([
      answered(startLink()),
      answered(stack.invoke('player', 'profile', { name: player })),
      answered(stack.invoke('player', 'profile', {})),
    ]);
    expect(isStoreDown(started)).toBe(true);
    expectDataOrStoreDown(named, player);
    // Without a name, the linked account is looked up in the database, which answers: a clear answer.
    expect(isStoreDown(unnamed)).toBe(false);
    expect(JSON.stringify(unnamed.embeds)).not.toContain('Something went wrong');

    const down = await health();
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'store-down', store: { status: 'down', reason: 'timeout' } });

    redis.resume();
    await healthBecomes(200);
    const message = await answered(stack.invoke('player', 'profile', { name: player }));
    expect(isStoreDown(message)).toBe(false);
    expect(JSON.stringify(message.embeds)).toContain(player);
  }, 90_000);

  it('refusing connections: commands are answered clearly, /healthz says not ready, then all recovers', async () => {
    await healthBecomes(200);
    const clan = stack.sandbox.world.samples.verifiedPlayer;
    await redis.stop();
    await healthBecomes(503);

    const [started, named] = await Promise.all([
      answered(startLink()),
      answered(stack.invoke('player', 'profile', { name: clan })),
    ]);
    expect(isStoreDown(started)).toBe(true);
    expectDataOrStoreDown(named, clan);

    await redis.start();
    await healthBecomes(200);
    const message = await answered(startLink());
    expect(isStoreDown(message)).toBe(false);
  }, 90_000);
});

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../src/dev/demo/stack.ts';
import { Translations } from '../../src/i18n/index.ts';
import { configureLog, createLogger } from '../../src/log/index.ts';
import type { MessageRecord, PendingInteraction } from '../../src/dev/standin/index.ts';
import { freePort } from '../support/net.ts';
import { redisAvailable, startRedisServer, type RedisServer } from '../store/redis-server.ts';

/**
 * The real bot on a Redis store whose server is paused (it holds the connection and answers nothing) or
 * gone (the port refuses): every command still gets its first response within the Discord stand-in's
 * 3 s window and then a clear answer, `/healthz` says not ready meanwhile and ready again afterwards.
 */
const EPHEMERAL = 64;
const MANAGE_GUILD = 1n << 5n;
const storeDown = new Translations().for('en-US').t('common:errors.storeDown');

describe.skipIf(!redisAvailable)('commands while the Redis store is down', () => {
  let redis: RedisServer;
  let stack: Stack;
  let healthUrl: string;

  beforeAll(async () => {
    // The lost connection is logged as warnings, expected here.
    configureLog('error');
    redis = await startRedisServer();
    const port = await freePort();
    healthUrl = `http://127.0.0.1:${port}/healthz`;
    stack = await startStack({
      storeUrl: redis.url,
      commands: ['player', 'unsubscribe'],
      announcements: false,
      env: { HTTP_PORT: String(port) },
      logger: createLogger({ level: 'silent' }),
    });
  }, 60_000);

  afterAll(async () => {
    redis.resume();
    await stack.stop();
    await redis.stop();
    configureLog('info');
  });

  async function health(): Promise<{ status: number; body: { status: string; store: { status: string } } }> {
    const reply = await fetch(healthUrl, { signal: AbortSignal.timeout(5_000) });
    return { status: reply.status, body: (await reply.json()) as never };
  }

  /** Polls /healthz until it reports `status` (bounded by the test's timeout). */
  async function healthBecomes(status: number): Promise<void> {
    while ((await health()).status !== status) await sleep(100);
  }

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

  const unsubscribe = () =>
    stack.invoke('unsubscribe', undefined, { id: 'abc123' }, { memberPermissions: MANAGE_GUILD });

  it('paused: commands are answered clearly, /healthz says not ready, then all recovers', async () => {
    expect((await health()).status).toBe(200);
    const player = stack.sandbox.world.samples.player;
    redis.pause();

    expect(isStoreDown(await answered(unsubscribe()))).toBe(true);
    expectDataOrStoreDown(await answered(stack.invoke('player', 'profile', { name: player })), player);
    expect(isStoreDown(await answered(stack.invoke('player', 'profile', {})))).toBe(true);

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

    expect(isStoreDown(await answered(unsubscribe()))).toBe(true);
    expectDataOrStoreDown(await answered(stack.invoke('player', 'profile', { name: clan })), clan);

    await redis.start();
    await healthBecomes(200);
    const message = await answered(unsubscribe());
    expect(isStoreDown(message)).toBe(false);
  }, 90_000);
});

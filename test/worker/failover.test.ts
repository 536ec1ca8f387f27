import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRepositories } from '../../src/announcements/repositories.ts';
import { signPayload } from '../../src/announcements/webhook.ts';
import { stackEnvironment } from '../../src/dev/demo/stack.ts';
import { freePort } from '../../src/dev/net.ts';
import { startSandbox, type Sandbox } from '../../src/dev/sandbox/index.ts';
import { startDiscordStandin, type DiscordStandin } from '../../src/dev/standin/index.ts';
import { openDatabase, type Database } from '../../src/db/index.ts';
import { createStore, type Store } from '../../src/store/index.ts';
import { OutputLines, within } from '../support/processes.ts';

/**
 * Two worker processes on one database and one store: one works, the other stands by. The game pushes a
 * featured map to the working one, which fans it out to 24 channels at 10 posts a second; it is killed
 * (SIGKILL) in the middle. The standby takes the lease over once it expires and finishes the fan-out:
 * every channel gets the announcement exactly once (deliveries the dead one recorded are skipped, those
 * it had in flight are resent with the same nonce, which Discord answers with the message it posted).
 */
const CHANNELS = 24;
const SCRIPT = fileURLToPath(new URL('../support/worker-process.ts', import.meta.url));
const WEBHOOK_SECRET = 'failover-webhook-secret';

interface Child {
  readonly process: ChildProcess;
  /** Resolves once the worker says (a `state …` line on its stdout) that it is in `state`. */
  became(state: string): Promise<string>;
}

function spawnWorker(env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const output = new OutputLines(child.stdout);
  return {
    process: child,
    became: (state) => output.when((line) => line === `state ${state}`, 30_000, `worker ${state}`),
  };
}

function push(port: number, body: { id: number }): Promise<number> {
  const raw = JSON.stringify(body);
  const headers = {
    'content-type': 'application/json',
    'Krunker-Signature': signPayload(WEBHOOK_SECRET, Math.floor(Date.now() / 1000), raw),
    'Krunker-Event-Id': String(body.id),
  };
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${port}/webhook`, { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(raw);
  });
}

describe('a worker killed in the middle of a fan-out', () => {
  let dir: string;
  let sandbox: Sandbox;
  let discord: DiscordStandin;
  let db: Database;
  let store: Store;
  const children: Child[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'killfeed-failover-'));
    sandbox = await startSandbox();
    discord = await startDiscordStandin({ globalRateLimit: { perSecond: 10 } });
    db = await openDatabase(`sqlite://${join(dir, 'killfeed.sqlite')}`);
    store = await createStore(`sqlite://${join(dir, 'bot.sqlite')}`, { purgeIntervalMs: 0 });
  }, 30_000);

  afterAll(async () => {
    for (const child of children) child.process.kill('SIGKILL');
    await db.close();
    await store.close();
    await discord.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is finished by the standby, every channel announced exactly once', async () => {
    const guild = discord.addGuild({ name: 'Fan-out' });
    const channels = Array.from(
      { length: CHANNELS },
      (_, i) => discord.addChannel(guild.id, { name: `maps-${i}` }).id,
    );
    const repos = openRepositories(db, store);
    const made = Date.now() - 60_000;
    for (const channelId of channels) {
      await repos.subscriptions.create({
        guildId: guild.id,
        channelId,
        kind: 'maps',
        options: {},
        locale: 'en-US',
        createdBy: '1',
        createdAt: made,
        since: made,
        state: { status: 'active' },
      });
    }
    const env = {
      ...stackEnvironment(sandbox, discord, {
        STORE_URL: `sqlite://${join(dir, 'bot.sqlite')}`,
        DATABASE_URL: `sqlite://${join(dir, 'killfeed.sqlite')}`,
        EVENTS_POLL_SECONDS: '20',
        WORKER_LEASE_SECONDS: '2',
        LOG_LEVEL: 'warn',
        WEBHOOK_SECRET,
        WEBHOOK_SERVICE: 'Krunker',
      }),
      PROCESS_ROLE: 'worker',
    };
    const posted = () => channels.reduce((sum, id) => sum + discord.messages(id).length, 0);
    // Told by the stand-in as each post is answered.
    const postedAtLeast = (count: number) => discord.until(() => posted() >= count, `${count} posts`, 30_000);

    const firstPort = await freePort();
    const first = spawnWorker({ ...env, WEBHOOK_PORT: String(firstPort) });
    children.push(first);
    await first.became('active');
    const second = spawnWorker({ ...env, WEBHOOK_PORT: String(await freePort()) });
    children.push(second);
    await second.became('standby');

    const map = sandbox.world.maps.find((m) => m.hidden === null)!;
    const event = {
      id: 77,
      type: 'map.featured',
      created_at: new Date().toISOString(),
      target: { type: 'map', id: map.id },
      data: { map_id: map.id, map_name: map.name, creator: map.creatorName },
    };
    expect(await push(firstPort, event)).toBe(200);

    await postedAtLeast(6);
    first.process.kill('SIGKILL');
    expect(posted()).toBeLessThan(CHANNELS);

    await second.became('active');
    await postedAtLeast(CHANNELS);
    // A clean stop waits for the delivery under way, which records the event done: then the inbox is read.
    const exited = once(second.process, 'exit');
    second.process.kill('SIGTERM');
    expect(await within(30_000, exited, 'the standby stopped')).toEqual([0, null]);
    expect(await repos.inbox.pending()).toEqual([]);
    for (const channelId of channels) expect(discord.messages(channelId)).toHaveLength(1);
    expect(await repos.inbox.isDone('e:77')).toBe(true);
  }, 90_000);
});

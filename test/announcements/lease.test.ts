import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { Lease } from '../../src/announcements/lease.ts';
import { createStore, type Namespace, type Store } from '../../src/store/index.ts';

/**
 * Two processes share the worker lease through one store; their clocks disagree. The one that holds it
 * renews while the other, whose clock runs ahead past the lease's end, takes it over: whatever the
 * interleaving, at most one of them may believe it holds the lease afterwards.
 */
const RUN = `t${randomBytes(4).toString('hex')}-`;
const dir = mkdtempSync(join(tmpdir(), 'killfeed-lease-'));
const opened: Store[] = [];

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1_000);
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/** `store` with a hook run before each write of one of its namespaces: where another process steps in. */
function beforeWrites(store: Store, hook: () => Promise<void>): Store {
  return {
    kind: store.kind,
    health: store.health,
    purgeExpired: () => store.purgeExpired(),
    close: () => store.close(),
    namespace<T = unknown>(name: string): Namespace<T> {
      const ns = store.namespace<T>(name);
      return {
        name: ns.name,
        get: (key) => ns.get(key),
        has: (key) => ns.has(key),
        entries: () => ns.entries(),
        set: async (key, value, ttlMs) => {
          await hook();
          return ns.set(key, value, ttlMs);
        },
        add: async (key, value, ttlMs) => {
          await hook();
          return ns.add(key, value, ttlMs);
        },
        replace: async (key, expected, value, ttlMs) => {
          await hook();
          return ns.replace(key, expected, value, ttlMs);
        },
        delete: async (key) => {
          await hook();
          return ns.delete(key);
        },
      };
    },
  };
}

const TTL = 60_000;
const START = Date.UTC(2026, 0, 1);

const backends: { label: string; url: string; port?: number }[] = [
  { label: 'memory', url: 'memory://' },
  { label: 'sqlite', url: `sqlite://${join(dir, 'leases.sqlite')}` },
  { label: 'redis', url: 'redis://127.0.0.1:6379', port: 6379 },
  { label: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/test', port: 5432 },
];

for (const backend of backends) {
  const up = backend.port === undefined || (await reachable(backend.port));
  describe.runIf(up)(`the worker lease in a ${backend.label} store`, () => {
    it('is held by one process at most when a skewed clock takes it over during a renewal', async () => {
      const store = await createStore(backend.url, { prefix: RUN, purgeIntervalMs: 0 });
      opened.push(store);
      const name = `worker-${backend.label}`;
      // Only Date is faked: the stores' own timers and sockets run as usual.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(START);
      let takenOver: boolean | undefined;
      const other = new Lease(store, name, 'process-b', TTL);
      // Process b's clock runs 50 s ahead: 20 s into a's lease, b reads it as ended 10 s ago.
      const stepIn = async () => {
        if (takenOver !== undefined) return;
        vi.setSystemTime(START + 20_000 + 50_000);
        takenOver = await other.acquire();
        vi.setSystemTime(START + 20_000);
      };
      const holder = new Lease(beforeWrites(store, stepIn), name, 'process-a', TTL);
      takenOver = undefined;
      const first = await new Lease(store, name, 'process-a', TTL).acquire();
      expect(first).toBe(true);

      vi.setSystemTime(START + 20_000);
      const renewed = await holder.renew();
      expect(takenOver).toBe(true);
      // Before: a read, b's takeover, then a's write over it; both believed they held the lease.
      expect(renewed && takenOver).toBe(false);
      expect(renewed).toBe(false);
      expect(await store.namespace<string>('announce-leases').get(name)).toBe('process-b');
      // b renews its own term; a cannot renew what it no longer holds.
      expect(await other.renew()).toBe(true);
      expect(await new Lease(store, name, 'process-a', TTL).renew()).toBe(false);
      await other.release();
    });

    it('is renewed by its holder while nobody else took it', async () => {
      const store = await createStore(backend.url, { prefix: RUN, purgeIntervalMs: 0 });
      opened.push(store);
      const name = `renew-${backend.label}`;
      const lease = new Lease(store, name, 'process-a', TTL);
      expect(await lease.acquire()).toBe(true);
      expect(await lease.renew()).toBe(true);
      expect(await lease.acquire()).toBe(true);
      expect(await new Lease(store, name, 'process-b', TTL).acquire()).toBe(false);
      await lease.release();
      expect(await new Lease(store, name, 'process-b', TTL).renew()).toBe(false);
      expect(await new Lease(store, name, 'process-b', TTL).acquire()).toBe(true);
      await new Lease(store, name, 'process-b', TTL).release();
    });
  });
}

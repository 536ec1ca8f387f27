import { describe, expect, it } from 'vitest';
import { gather } from '../../../commands/turf.ts';

/** A responder that becomes deferred when the first call that needs the network starts. */
function fakeLoader() {
  const responder = { deferred: false, answered: false };
  const log: string[] = [];
  let running = 0;
  let maxRunning = 0;
  const call =
    <T>(name: string, value: T, cached: boolean) =>
    async (): Promise<T> => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      log.push(`start ${name}`);
      if (!cached && !responder.deferred) {
        // What ctx.load does: defer before a network call; two at once would defer twice.
        if (running > 1) throw new Error('two loads raced to defer');
        responder.deferred = true;
      }
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      log.push(`end ${name}`);
      return value;
    };
  return { loader: { responder }, call, log, maxRunning: () => maxRunning };
}

describe('gather (turf command)', () => {
  it('runs calls one at a time until the interaction is deferred, then the rest together', async () => {
    const { loader, call, log, maxRunning } = fakeLoader();
    const result = await gather(loader, [
      call('a', 1, true),
      call('b', 'two', false),
      call('c', 3, false),
      call('d', [4], false),
    ] as const);
    expect(result).toEqual([1, 'two', 3, [4]]);
    expect(log.slice(0, 4)).toEqual(['start a', 'end a', 'start b', 'end b']);
    expect(log.slice(4, 6).sort()).toEqual(['start c', 'start d']);
    expect(maxRunning()).toBe(2);
  });

  it('keeps the order of results when everything is cached (never deferred)', async () => {
    const { loader, call, maxRunning } = fakeLoader();
    const result = await gather(loader, [
      call('a', 'x', true),
      call('b', 'y', true),
      call('c', 'z', true),
    ] as const);
    expect(result).toEqual(['x', 'y', 'z']);
    expect(maxRunning()).toBe(1);
  });

  it('runs everything together once already deferred', async () => {
    const { loader, call, maxRunning } = fakeLoader();
    loader.responder.deferred = true;
    expect(
      await gather(loader, [call('a', 1, false), call('b', 2, false), call('c', 3, false)] as const),
    ).toEqual([1, 2, 3]);
    expect(maxRunning()).toBe(3);
  });

  it('passes a failure through', async () => {
    const { loader, call } = fakeLoader();
    const failing = async (): Promise<number> => {
      throw new Error('boom');
    };
    await expect(gather(loader, [call('a', 1, false), failing] as const)).rejects.toThrow('boom');
  });
});
